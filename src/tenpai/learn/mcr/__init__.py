"""MCR (Chinese Official) pieces of the learning layer: seeds 002 and 003 on Botzone games.

MCR has flowers, no riichi and chow only from the left, so its table picture (:mod:`.state`),
decision extraction (:mod:`.decisions`) and encoders (:mod:`.encoders`) are its own; everything
else — dataset shards, training, agreement — is the shared pipeline, reached through MCR's
registry entry (:mod:`.records`).  See docs/learning_mcr.md.
"""

"""Supervised learning on MCR (Chinese Official) records: seeds 002 and 003 on Botzone games.

The Riichi pipeline (:mod:`tenpai.learn`) reads Riichi views (riichi, dora, red fives); MCR
has flowers, no riichi and chow only from the left, so it gets its own table tracker
(:mod:`.state`), decision extraction (:mod:`.decisions`), encoders (:mod:`.encoders`),
dataset builder (:mod:`.dataset`), trainer (:mod:`.train`) and agreement (:mod:`.evaluate`).
See docs/learning_mcr.md.
"""

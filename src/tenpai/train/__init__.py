"""Training loops for the supervised models (the ``learn`` extra): shards, augmentation, SL."""

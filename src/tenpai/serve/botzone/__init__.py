"""Botzone's Chinese-Standard-Mahjong protocol: our MCR agents as Botzone bots
(:mod:`.bot`, :mod:`.io`), our engine as Botzone's judge for external bots (:mod:`.judge`,
:mod:`.external`), and the upload package (:mod:`.package`)."""

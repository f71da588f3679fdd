"""Reading the opponents from what the table shows: 001's public picture of a hand, the features
of its opponent models and the fitted models themselves (readiness, waits, final rank).

They live below every player that reads opponents — the MDP player (:mod:`tenpai.mdp`) and the
search's worlds (:mod:`tenpai.search.readiness`) — so neither has to import the other.
Modules: :mod:`~tenpai.reading.table` (the public picture, fed event by event),
:mod:`~tenpai.reading.features` (the models' features) and :mod:`~tenpai.reading.models` (the
model file and its predictions); fitting them is :mod:`tenpai.mdp.fit`.
"""

"""Tenhou's TCP protocol: our own table server (:mod:`.server`, :mod:`.table`) and our client
(:mod:`.client`).

Tenhou speaks XML-like tags, each ended by a NUL byte.  :mod:`.wire` reads them with a strict
parser of its own (never an XML library on untrusted input); :mod:`.tiles136` gives every tile
of a hand its physical id (0-135) as Tenhou does; :mod:`.messages` builds the server's tags,
seen from each seat (seat 0 is always the receiver); :mod:`.view` turns received tags back into
the project's events so the mjai seat tracker can rebuild a client's view of the game.
docs/tenhou.md describes the message flow and the robustness rules.
"""

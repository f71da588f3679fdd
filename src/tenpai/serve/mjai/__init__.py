"""mjai: our agents as mjai bots (:mod:`.bot`, :mod:`.io`) and mjai bots as arena seats.

The seat tracker (:mod:`.tracker`), the legal actions (:mod:`.legal`) and the observation
(:mod:`.observation`) rebuild an agent's view from the event stream alone; docs/mjai.md
describes the message flow.
"""

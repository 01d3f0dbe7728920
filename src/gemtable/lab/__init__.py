"""The strategy lab: your own bots, statistics with honest intervals, reports.

Everything here needs only the standard library.  A game's batch simulator lives in the game's folder
(the expedition's, :mod:`gemtable.games.expedition.batch`, needs numpy: the ``lab`` extra,
``pip install 'gemtable[lab]'``).
"""

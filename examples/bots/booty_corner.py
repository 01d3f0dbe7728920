"""A Booty Hunter bot: the placement that scores best for me now, ties broken towards the board's first corner.

Play it:  gemtable simulate booty --bot examples/bots/booty_corner.py --bots greedy,random --games 30
"""


def choose(view, moves, rng):
    me = view.seat
    best = max(moves, key=lambda move: (view.scores_after(move)[me], -moves.index(move)))
    return best

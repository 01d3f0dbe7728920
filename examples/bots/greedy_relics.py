"""An expedition bot: greedy, but it runs for it when a relic is on the path or the cave turns nasty.

Play it:  gemtable simulate --bot examples/bots/greedy_relics.py --bots cautious,odds
"""


def choose(view, moves, rng):
    # A lone leaver takes every relic on the path: worth walking out for while they are worth 5 or 10.
    if view.relics_on_path and view.relic_worth(view.relics_on_path) >= 5 and len(view.inside) > 1:
        return "camp"
    # Walk out when the next card would collapse the cave one time in five, or we carry plenty.
    if view.collapse_chance() >= 0.2 or view.carried >= 12:
        return "camp"
    return "deeper"

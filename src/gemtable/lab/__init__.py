"""The strategy lab: your own bots, statistics with honest intervals, reports, and a batch simulator.

Everything here but :mod:`gemtable.lab.batch` needs only the standard library; the
batch needs numpy, the ``lab`` extra (``pip install 'gemtable[lab]'``).
"""

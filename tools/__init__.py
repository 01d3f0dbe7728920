"""The tools that test gemtable, beside the package and not installed with it (as python-chess keeps ``fuzz/``
and websockets ``fuzzing/``): the fuzzer (``fuzz.py``) and the soak (``soak.py``), run from the repository with
``python -m tools fuzz`` and ``python -m tools soak``, and used by the tests; and two measures of issue 21's
attacks, ``python -m tools hello_flood`` and ``python -m tools log_growth``."""

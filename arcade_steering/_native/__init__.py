"""The native step: a batch's behaviour tree and the integrator in one compiled call each.

``kernel.c`` is the C, ``build.py`` builds it with cffi (``setup.py`` runs it), ``program.py``
compiles a batch's tree into the instructions the C interprets and ``stepper.py`` checks the
arrays and makes the calls. The numpy path is the reference; see "The native step" on the
page "Performance".
"""

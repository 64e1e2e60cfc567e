"""The native step: a batch's behaviour tree and the integrator in one compiled call each.

``kernel.h`` declares what Python calls, ``native.h`` what the C files share; ``program.c``
checks and interprets a batch's program, one ``.c`` file per behaviour. ``build.py`` builds
it with cffi (``setup.py`` runs it), ``program.py`` compiles a batch's tree into the
instructions the C interprets and ``stepper.py`` checks the arrays (``arrays.py``) and makes
the calls; ``follow.py`` binds the FollowPath and FollowLeader leaves step by step.
The numpy path is the reference; see "The native step" on the page "Performance".
"""

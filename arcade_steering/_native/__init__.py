"""The native step: a batch's behaviour tree and the integrator in one compiled call each.

``kernel.h`` declares what Python calls, ``native.h`` what the C files share; ``program.c``
checks and interprets a batch's program, one ``.c`` file per behaviour; ``solid.c`` and
``dig_out.c`` hold the solid step. ``build.py`` builds it with cffi (``setup.py`` runs it),
``program.py`` compiles a batch's tree into the instructions the C interprets, ``stepper.py``
makes the calls, ``bound.py`` binds what a batch's leaves read each step (``follow.py`` the
paths and leaders, ``wander.py``, ``waypoints.py`` and ``containment.py`` theirs),
``solid_step.py`` the solid step's call, and ``arrays.py`` checks every array before
its address goes to the C.
The numpy path is the reference; see "The native step" on the page "Performance".
"""

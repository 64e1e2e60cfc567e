/* The native step: a batch's behaviour tree, compiled to a postfix program, evaluated for
 * every agent of the batch, and the integrator. The numpy path is its specification
 * (arcade_steering/behaviors/seek.py, group.py, combine.py, _core/integrate.py).
 *
 * Every function checks the indices it is given against the sizes it is given and returns
 * a negative AS_ERR_* code instead of reading or writing out of bounds. */

#include <stdint.h>

/* Opcodes: one instruction of a program, ops[4 * i .. 4 * i + 3] = {op, a, b, c}. */
#define AS_SEEK 1       /* a: target; pushes a force */
#define AS_FLEE 2       /* a: target, b: panic_distance column */
#define AS_ARRIVE 3     /* a: target, b: slowing_radius column, c: tolerance column */
#define AS_SEPARATION 4 /* a: pair set, b: radius column */
#define AS_WEIGHTED 5   /* a: children k, b: first of k weight columns; pops k, pushes 1 */
#define AS_PRIORITY 6   /* a: children k, b: threshold column; pops k, pushes 1 */
#define AS_AVOID_OBSTACLES 7 /* a: obstacle set, b: first of 4 columns (length,
                              * min_length, buffer, braking); pushes a force */
#define AS_PURSUE 16  /* a: leader set (the quarry), b: max_prediction column; pushes a force */
#define AS_EVADE 17   /* a: leader set (the threat), b: first of 2 columns (threat_range,
                       * max_prediction); pushes a force */
#define AS_MATCH_VELOCITY 18 /* a: leader set (the target); pushes a force */
/* The leaves that turn where the agents look (behaviors/look.py) push a zero force and a turn,
 * an angular acceleration in degrees per s²; a blend combines its children's turns as it does
 * their forces, and the root's turn goes to agents->angular. */
#define AS_FACE 20  /* a: target, b: tolerance column */
#define AS_LOOK_WHERE_YOU_ARE_GOING 21 /* b: tolerance column */
#define AS_SCAN 22  /* a: scan set, b: first of 3 columns (half_angle, period, tolerance) */
#define AS_INTERPOSE 23 /* a: leader set of target a, b: first of 3 columns (max_prediction,
                        * slowing_radius, tolerance), c: leader set of target b; pushes a force */
#define AS_WANDER 24 /* a: wander set, b: first of 2 columns (radius, distance); pushes a
                      * force */
#define AS_FOLLOW_WAYPOINTS 25 /* a: waypoint set, b: first of 3 columns (arrive_radius,
                               * slowing_radius, tolerance); pushes a force */
#define AS_CONTAINMENT 26 /* a: containment set, b: first of 3 columns (length, side_angle,
                          * side_ratio); pushes a force */
#define AS_ALIGNMENT 14 /* a: pair set, b: radius column */
#define AS_COHESION 15  /* a: pair set, b: radius column */
#define AS_EVADE_SIGHT_CONE 13 /* a: leader target, b: first of 3 columns (length, half_angle,
                                * max_prediction), c: sight-cone set; pushes a force */
#define AS_AVOID_WALLS 8 /* b: first of 3 columns (length, side_angle, side_ratio); pushes a
                          * force */
#define AS_FOLLOW_PATH 9    /* a: path set, b: first of 5 columns (prediction, look_ahead,
                             * min_look_ahead, slowing_radius, tolerance); pushes a force */
#define AS_FOLLOW_LEADER 10 /* a: leader set, b: first of 3 columns (distance, slowing_radius,
                             * tolerance); pushes a force */
#define AS_STAY_ON_PATH 12 /* a: path set (its state unused), b: prediction column; pushes a
                            * force */
#define AS_OFFSET_PURSUIT 11 /* a: leader set, b: first of 5 columns (offset ahead, offset
                              * left, max_prediction, slowing_radius, tolerance); pushes a
                              * force */

/* The deepest stack a program may need. */
#define AS_MAX_STACK 32

#define AS_OK 0
#define AS_ERR_SLOT -1    /* a slot outside the agents' columns */
#define AS_ERR_PROGRAM -2 /* an opcode, column, target or pair set out of range */
#define AS_ERR_STACK -3   /* the program under- or overflows the stack */
#define AS_ERR_PAIRS -4   /* pairs not grouped by asking agent, a neighbour or label out of range */
#define AS_ERR_OBSTACLES -5 /* an obstacle set's state missing */
#define AS_ERR_SIGHT_CONES -6 /* a leader's slot outside the agents' columns, or state missing */
#define AS_ERR_GEOMETRY -7 /* the geometry inconsistent, or missing where a leaf reads it */
#define AS_ERR_PATHS -8     /* a path or segment out of range, or a path set's arrays missing */
#define AS_ERR_LEADERS -9   /* a leader set's arrays missing */
#define AS_ERR_SHAPES -10 /* a solid circle's arrays missing */
#define AS_ERR_LOOKS -11 /* the agents' turn columns or a scan set's phase missing */
#define AS_ERR_STATE -12  /* a Wander, FollowWaypoints or Containment set's arrays missing, or
                           * a waypoint list or index out of range */

/* The world's agent columns (AgentArrays), capacity rows each. */
typedef struct {
    double *position;            /* (capacity, 2) */
    double *velocity;            /* (capacity, 2) */
    double *force;               /* (capacity, 2) */
    double *heading;             /* (capacity, 2) */
    double *look;                /* (capacity, 2) */
    const double *max_speed;     /* (capacity,) */
    const double *max_force;     /* (capacity,) */
    const double *mass;          /* (capacity,) */
    const double *radius;        /* (capacity,) */
    const double *response_time; /* (capacity,) */
    intptr_t capacity;
    /* Read only by programs that turn the look, and by as_turn_looks (else may be NULL). */
    double *angular;                        /* (capacity,) degrees per s² */
    double *angular_velocity;               /* (capacity,) degrees per s */
    const double *max_turn_rate;            /* (capacity,) */
    const double *max_angular_acceleration; /* (capacity,) */
} as_agents;

/* One Separation, Alignment or Cohesion leaf's neighbour pairs for this step, grouped by asking agent; or, with
 * everyone set, none given: the neighbours are every agent of as_program.world within reach,
 * found in that order (the numpy index's order for a world of few agents). */
typedef struct {
    const intptr_t *query;  /* (count,) position of the asking agent in the batch */
    const intptr_t *other;  /* (count,) the neighbour's slot */
    const double *offset;   /* (count, 2) neighbour minus agent, px */
    const double *distance; /* (count,) px */
    intptr_t count;
    int32_t everyone;
    /* Or, with label set (among= groups no agent is in two of), none given either: the
     * neighbours are the agents of as_program.world within reach whose label equals the
     * group the asking agent asks about. */
    const intptr_t *label;  /* (n_world,) each world agent's group, -1 for none */
    const intptr_t *asked;  /* (n,) the group each agent of the batch asks about */
    intptr_t groups;        /* labels are -1 .. groups - 1, asked groups 0 .. groups - 1 */
} as_pairs;

/* One AvoidObstacles leaf's per-agent state, read and written in place. Its candidates are
 * the geometry's obstacles near each agent's detection box (as_geometry), tried in ascending
 * order: the first of equal threats wins. */
typedef struct {
    double *chosen;         /* (n,) the obstacle steered round, -1 for none */
    double *side;           /* (n,) +1 or -1, 0 for none */
    double *cruise;         /* (n,) the speed the threat was met with, NaN for none */
    intptr_t threats;       /* out: how many agents have a threat */
} as_obstacles;

/* One Scan leaf's per-agent state, read and written in place. */
typedef struct {
    double *phase; /* (n,) where each agent is in its sweep, 0 .. 1 */
} as_scan;

/* One EvadeSightCone leaf's leaders this step (their positions are the leaf's target) and
 * its per-agent state, read and written in place. */
typedef struct {
    const double *velocity;      /* (n, 2) each agent's leader's velocity, px/s */
    const intptr_t *leader;      /* (n,) the leader's slot in the agents' columns, -1 for none */
    double *heading;             /* (n, 2) the leader's last heading, NaN for unknown */
    double *velocity_before;     /* (n, 2) the leader's velocity one step before, NaN: unknown */
    double *look_before;         /* (n, 2) where the leader looked one step before, NaN: unknown */
    int32_t occluded;            /* 1: the geometry's walls hide agents from their leader,
                                  * on the line between them (occluded=True) */
} as_sight_cones;
/* The walls and obstacles as the native step reads them (geometry/_frames.LocalFrames). */
typedef struct {
    const double *cols;  /* (10, m) the kernel columns: ax ay bx by ux uy len rad gx gy */
    const double *start; /* (m, 2) each core's first end, px */
    const double *turn;  /* (m, 2) each core's rotation into its frame, a unit complex */
    intptr_t m;
} as_shapes;

/* The world's walls (shapes 0 .. n_walls - 1) and obstacles (the rest), and the broad phase's
 * uniform grid of square cells over them (geometry/_broad_phase.CapsuleGrid): cell column * ny
 * + row lists, in ascending order, every shape whose capsule may overlap it, found through
 * its table (geometry/_cell_table.CellTable): a row per cell, or, for a grid spanning more
 * cells than that holds, a hash table of its occupied cells. Checked once
 * (as_check_geometry) when made; seen and found are the queries' scratch. */
typedef struct {
    as_shapes shapes;
    intptr_t n_walls;
    double origin_x, origin_y; /* the grid's lower-left corner, px */
    double cell;               /* its cells' side, px */
    intptr_t nx, ny;
    intptr_t rows;             /* the table's rows: nx * ny, or the hash table's */
    const intptr_t *keys;      /* (rows,) the cell each row holds, -1 for none; NULL: a row
                                * per cell */
    int32_t shift;             /* hashed: a cell's home row is (cell * 0x9E3779B97F4A7C15,
                                * mod 2^64) >> shift */
    intptr_t probes;           /* hashed: a cell lies less than probes rows past its home */
    const intptr_t *first;     /* (rows,) each row's first listing in items */
    const intptr_t *count;     /* (rows,) each row's listings */
    const intptr_t *items;     /* (listings,) shape rows */
    intptr_t listings;
    intptr_t *seen;            /* (m,) the query that last listed each shape */
    intptr_t *found;           /* (m,) the shapes one query found */
    intptr_t queries;          /* queries so far */
} as_geometry;

/* Whether the geometry's sizes, grid and listings are consistent: AS_OK, or AS_ERR_GEOMETRY. */
int as_check_geometry(const as_geometry *geometry);

/* One FollowPath (or StayOnPath) leaf's paths, stacked as path/pack.py's PathPack stacks
 * them, and a FollowPath's agents' progress, read and written in place (NULL for a
 * StayOnPath). */
typedef struct {
    const double *table;        /* (7, segments) the segment rows: x, y, dx, dy, at, span, radius */
    const double *key;          /* (segments,) at plus the path's base: sorted */
    intptr_t segments;
    const double *length;       /* (paths,) px */
    const double *base;         /* (paths,) where each path's keys start */
    const double *period;       /* (paths,) a loop's length, 1 for other paths */
    const uint8_t *closed;      /* (paths,) */
    const uint8_t *looped;      /* (paths,) closed and longer than 0 */
    const double *ends;         /* (paths, 2, 2) each path's first and last point */
    intptr_t paths;
    int32_t any_open;           /* some path is open */
    int32_t always;             /* FollowPath.always */
    int32_t at_end;             /* 0 "stop", 1 "loop", 2 "reverse" */
    const intptr_t *which;      /* (n,) each agent's path */
    const double *path_velocity; /* (n, 2) how fast its path moves where it is, or NULL */
    double *progress;           /* (n,) px along the path; NaN for an agent new to it */
    double *sense;              /* (n,) +1 or -1 */
    double *homing;             /* (n,) 1 while heading back to an open path's start */
    double *normal;             /* (n, 2) out: the normal points */
} as_paths;

/* One FollowLeader, OffsetPursuit, Pursue, Evade or MatchVelocity leaf's leaders (its moving
 * target), or one of an Interpose's two targets, this step, one row per agent of the batch. */
typedef struct {
    const double *position;     /* (n, 2) px */
    const double *velocity;     /* (n, 2) px/s */
    const double *heading;      /* (n, 2) unit: the leader's; while unknown, towards it
                                 * (FollowLeader) or +x (OffsetPursuit) */
    const uint8_t *gone;        /* (n,) 1 where the leader is gone */
} as_leaders;

/* One Wander leaf's angles on the wander circle this step, walked in Python before the call
 * (the numpy component's random walk, drawn from the world's generator). */
typedef struct {
    const double *angle; /* (n,) radians */
} as_wander;

/* One FollowWaypoints leaf's lists this step (waypoints.waypoint_lists) and its agents'
 * state, read and written in place. */
typedef struct {
    const double *points;  /* (m, 2) every list's waypoints, one run per list, px */
    intptr_t m;
    const intptr_t *first; /* (n,) where each agent's list starts in points */
    const double *count;   /* (n,) how many points its list has (whole numbers) */
    const double *final;   /* (n,) "once": the first of the repeats its list ends with; or NULL */
    double *state;         /* (n, 2) each agent's waypoint index and sense (+1, -1), NaN: new */
    int32_t mode;          /* 0 "loop", 1 "pingpong", 2 "once" */
    intptr_t passes;       /* the most points of a list: how many one step may pass */
} as_waypoints;

/* One Containment leaf's outline, a geometry of its own (checked when made), and this step's
 * agents outside their region (containment.reentry, worked out in Python). */
typedef struct {
    as_geometry *outline;     /* the regions' edges, all walls */
    const intptr_t *owner;    /* (m,) each edge's region */
    const intptr_t *region;   /* (n,) each agent's region */
    const uint8_t *outside;   /* (n,) 1 where the agent is outside its region */
    const double *desired;    /* (n, 2) the velocity back in, where outside, px/s */
} as_containment;

/* A batch's compiled tree and what its leaves read this step. */
typedef struct {
    const int32_t *ops;     /* (n_ops, 4) */
    intptr_t n_ops;
    const double *params;   /* (n, n_params) per-agent parameters */
    intptr_t n_params;
    const double *targets;  /* (n_targets, n, 2) each target leaf's target per agent */
    const uint8_t *gone;    /* (n_targets, n) 1 where the agent's target is gone */
    intptr_t n_targets;
    const as_pairs *pairs;  /* (n_pairs,) */
    intptr_t n_pairs;
    as_obstacles *obstacles; /* (n_obstacles,) */
    intptr_t n_obstacles;
    as_paths *paths;        /* (n_paths,) */
    intptr_t n_paths;
    const as_leaders *leaders; /* (n_leaders,) */
    intptr_t n_leaders;
    const intptr_t *world;  /* (n_world,) every agent's slot, in the neighbour index's order */
    intptr_t n_world;
    as_sight_cones *sight_cones; /* (n_sight_cones,) */
    intptr_t n_sight_cones;
    as_geometry *geometry;  /* the walls and obstacles (checked), or NULL: none */
    as_scan *scans;         /* (n_scans,) */
    intptr_t n_scans;
    const as_wander *wanders; /* (n_wanders,) */
    intptr_t n_wanders;
    as_waypoints *waypoints; /* (n_waypoints,) */
    intptr_t n_waypoints;
    as_containment *containments; /* (n_containments,) */
    intptr_t n_containments;
} as_program;

/* Forces of the batch's agents (slots, n of them) into agents->force, as the numpy path's
 * evaluate(root) finds them: before truncation to max_force; where the program turns the
 * look, its turns into agents->angular, as evaluate_turn(root) finds them. */
int as_steer(const as_agents *agents, const intptr_t *slots, intptr_t n,
             const as_program *program, double dt);

/* integrate() without the solid step: truncate the force, accelerate, move, turn headings. */
int as_integrate(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
                 double heading_min_speed);

/* integrate.turn_looks, after the integrator: the looks of the agents whose trees turn them
 * (slots, k of them) put back to saved (k, 2), where they were before the integrator turned
 * them to the headings, then turned by agents->angular within each agent's limits. */
int as_turn_looks(const as_agents *agents, const intptr_t *slots, intptr_t k, double dt,
                  const double *saved);

/* Solid circles this step. The C finds each one's candidate shapes itself in as_geometry, as
 * numpy's broad phase asks (solid.keep_out, dig_out.dig_out), in ascending order: the first
 * of equal contacts wins. */
typedef struct {
    const intptr_t *slots;  /* (k,) each circle's agent */
    const double *start;    /* (k, 2) where each circle began the step, px */
    intptr_t k;
    intptr_t buried;        /* out: how many started inside a shape and were dug out */
} as_circles;

/* The integrator's parts around the solid step: as_move truncates the force, accelerates
 * and moves (writing where each agent started into start, (n, 2)); as_turn turns headings. */
int as_move(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
            double *start);
int as_turn(const as_agents *agents, const intptr_t *rows, intptr_t n,
            double heading_min_speed);

/* solid.keep_out: the circles that start clear of every shape are swept and slid, the others
 * dug out; their positions and velocities written in place. AS_OK or an AS_ERR_* code. */
int as_keep_out(const as_agents *agents, as_geometry *geometry, as_circles *circles);

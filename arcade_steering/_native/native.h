/* What the native step's C files share: the vector helpers, one agent as its leaves read it,
 * and each file's functions. Not Python's: kernel.h is what Python calls.
 *
 * Each stage mirrors a numpy kernel operation for operation, so the two paths agree to
 * rounding: the numpy name is given above each one. */

#ifndef AS_NATIVE_H
#define AS_NATIVE_H

#include <math.h>
#include <stddef.h>

#include "kernel.h"

/* _util/vec.py: MIN_LENGTH, GOLDEN_ANGLE */
#define MIN_LENGTH 1e-12
#define PI 3.141592653589793 /* numpy.pi */
#define GOLDEN_ANGLE (PI * (3.0 - sqrt(5.0)))

typedef struct {
    double x, y;
} vec2;

static const vec2 ZERO = {0.0, 0.0};

static inline double length(vec2 v) { return sqrt(v.x * v.x + v.y * v.y); }

static inline vec2 scaled(vec2 v, double factor) {
    vec2 r = {v.x * factor, v.y * factor};
    return r;
}

static inline vec2 plus(vec2 a, vec2 b) {
    vec2 r = {a.x + b.x, a.y + b.y};
    return r;
}

static inline vec2 minus(vec2 a, vec2 b) {
    vec2 r = {a.x - b.x, a.y - b.y};
    return r;
}

static inline vec2 load(const double *rows, intptr_t row) {
    vec2 r = {rows[2 * row], rows[2 * row + 1]};
    return r;
}

static inline void store(double *rows, intptr_t row, vec2 v) {
    rows[2 * row] = v.x;
    rows[2 * row + 1] = v.y;
}

/* vec.normalize: unit vector, or fallback when shorter than MIN_LENGTH. */
static inline vec2 normalize(vec2 v, vec2 fallback) {
    double len = length(v);
    return len > MIN_LENGTH ? scaled(v, 1.0 / len) : fallback;
}

/* vec.truncate */
static inline vec2 truncate(vec2 v, double limit) {
    double len = length(v);
    return len > limit ? scaled(v, limit / len) : v;
}

/* vec.spread_directions */
static inline vec2 spread(intptr_t id) {
    double angle = (double)id * GOLDEN_ANGLE;
    vec2 r = {cos(angle), sin(angle)};
    return r;
}

/* numpy.maximum: NaN if either is (fmax would drop it). */
static inline double maximum(double a, double b) {
    if (isnan(a) || isnan(b)) return a + b;
    return a > b ? a : b;
}

/* masks.finite: NaN and inf replaced by zero, coordinate by coordinate. */
static inline vec2 finite(vec2 v) {
    vec2 r = {isfinite(v.x) ? v.x : 0.0, isfinite(v.y) ? v.y : 0.0};
    return r;
}

/* seek.velocity_force */
static inline vec2 velocity_force(vec2 desired, vec2 velocity, double response_time) {
    vec2 d = {desired.x - velocity.x, desired.y - velocity.y};
    return scaled(d, 1.0 / response_time);
}

/* group.c's grid over the world's agents, for rules among everyone. */
typedef struct neighbor_grid neighbor_grid;

/* What one agent's leaves read. */
typedef struct {
    intptr_t row;  /* position in the batch */
    intptr_t slot; /* row in the agents' columns */
    vec2 position, velocity, heading;
    double max_speed, max_force, mass, radius, response_time;
    double dt; /* the step, s */
    const double *params;
    neighbor_grid *grid; /* NULL: few agents, or no rule among everyone */
    /* Read by the leaves that turn the look only (loaded where the program turns). */
    vec2 look;
    double angular_velocity, max_turn_rate, max_angular_acceleration;
} agent;

/* numpy.minimum: NaN if either is. */
static inline double minimum(double a, double b) {
    if (isnan(a) || isnan(b)) return a + b;
    return a < b ? a : b;
}

/* _avoid_kernels.look_ahead for one agent: how far ahead it looks at its speed; given is its
 * length parameter (inf: the stopping distance from max_speed, plus its radius). */
static inline double look_ahead(const agent *a, double given) {
    double full = a->max_speed * a->max_speed;
    full /= 2.0 * (a->max_force / a->mass);
    full += a->radius;
    if (given < INFINITY) full = given;
    return full * minimum(length(a->velocity) / a->max_speed, 1.0);
}

/* _avoid_kernels.times */
static inline vec2 cmul(vec2 a, vec2 b) {
    vec2 r = {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
    return r;
}

/* program.c */
int check_slots(const as_agents *agents, const intptr_t *slots, intptr_t n);

/* seek.c */
vec2 seek(const agent *a, vec2 target);
vec2 flee(const agent *a, vec2 threat, double panic_distance);
vec2 arrive(const agent *a, vec2 target, double slowing_radius, double tolerance);
vec2 arrive_velocity(const agent *a, vec2 target, double slowing_radius, double tolerance);

/* group.c: Separation, Alignment, Cohesion over one pair set, read from *cursor on */
vec2 separation(const agent *a, const as_agents *agents, const as_program *program,
                const as_pairs *pairs, intptr_t *cursor, double reach);
vec2 alignment(const agent *a, const as_agents *agents, const as_program *program,
               const as_pairs *pairs, intptr_t *cursor, double reach);
vec2 cohesion(const agent *a, const as_agents *agents, const as_program *program,
              const as_pairs *pairs, intptr_t *cursor, double reach);
int check_pairs(const as_program *program, const as_agents *agents, intptr_t n);
/* A grid over the world's agents for the batch's rules among everyone; NULL where brute
 * force is as good (few agents, no such rule) or memory ran out. */
neighbor_grid *build_neighbor_grid(const as_agents *agents, const as_program *program,
                                   intptr_t n);
void free_neighbor_grid(neighbor_grid *grid);

/* geometry.c: the shapes first .. stop - 1 whose bounding boxes meet the box [lo, hi], each
 * once, in ascending order, into geometry->found; returns how many. */
intptr_t shapes_near(as_geometry *geometry, intptr_t first, intptr_t stop, vec2 lo, vec2 hi);
/* geometry.c: the shapes first .. stop - 1 listed in the grid's cells that the segment a -> b
 * crosses or touches (a superset of what geometry/_broad_phase's segment_pairs lists), each
 * once, in the order met, into geometry->found; returns how many. */
intptr_t shapes_along(as_geometry *geometry, intptr_t first, intptr_t stop, vec2 a, vec2 b);
/* as_check_geometry's checks of sizes and pointers, not of every listing (once per call) */
int check_geometry_sizes(const as_geometry *geometry);

/* avoid_obstacles.c */
vec2 avoid_obstacles(const agent *a, as_geometry *geometry, as_obstacles *set,
                     const double *params);
int check_obstacles(const as_program *program, intptr_t n);

/* evade_sight_cone.c */
vec2 evade_sight_cone(const agent *a, const as_agents *agents, as_sight_cones *set,
                      as_geometry *geometry, vec2 leader, const double *params);
int check_sight_cones(const as_program *program, const as_agents *agents, intptr_t n);
/* avoid_walls.c */
vec2 avoid_walls(const agent *a, as_geometry *geometry, const double *params);
intptr_t walls_in_reach(const agent *a, as_geometry *geometry, double front);
vec2 feel_walls(const agent *a, as_geometry *geometry, intptr_t k, double front,
                const double *params);
/* follow_path.c */
vec2 follow_path(const agent *a, as_paths *set, const double *params);
vec2 stay_on_path(const agent *a, const as_paths *set, double prediction);
int check_paths(const as_program *program, intptr_t n);

/* follow_leader.c */
vec2 follow_leader(const agent *a, const as_leaders *set, const double *params);
vec2 offset_pursuit(const agent *a, const as_leaders *set, const double *params);
int check_leaders(const as_program *program, intptr_t n);

/* pursue.c: Pursue, Evade, MatchVelocity over a leader set */
vec2 pursue(const agent *a, const as_leaders *set, const double *params);
vec2 evade(const agent *a, const as_leaders *set, const double *params);
vec2 match_velocity(const agent *a, const as_leaders *set);

/* look.c: Face, LookWhereYouAreGoing and Scan (its phase, one agent's, in place): turns */
double face(const agent *a, vec2 target, double tolerance);
double look_where_you_are_going(const agent *a, double tolerance);
double scan(const agent *a, double *phase, const double *params);
int check_looks(const as_program *program, const as_agents *agents, intptr_t n);
/* whether a leaf of the program turns the look */
int turns_look(const as_program *program);
/* numpy's exp(1j * radians(degrees)), and its complex a / b (Smith's method) */
vec2 rotation(double degrees);
vec2 quotient(vec2 a, vec2 b);

/* interpose.c */
vec2 interpose(const agent *a, const as_leaders *one, const as_leaders *other,
               const double *params);

/* wander.c */
vec2 wander(const agent *a, const as_wander *set, const double *params);
int check_wanders(const as_program *program, intptr_t n);

/* waypoints.c */
vec2 follow_waypoints(const agent *a, as_waypoints *set, const double *params);
int check_waypoints(const as_program *program, intptr_t n);

/* containment.c */
vec2 containment(const agent *a, as_containment *set, const double *params);
int check_containments(const as_program *program, intptr_t n);

/* The solid step (solid/contacts.py: SKIN, TOUCH; geometry/_frames.py: ON_CORE). */
#define SKIN 1e-3
#define TOUCH (2 * SKIN)
#define ON_CORE 1e-9

static inline vec2 conjugate(vec2 v) {
    vec2 r = {v.x, -v.y};
    return r;
}


/* numpy's complex product, rounded as its SIMD loops round it on CPUs with fused
 * multiply-adds (x86-64 with FMA3 or AVX-512, arm64): a * b, then the fused rest. */
static inline vec2 ctimes(vec2 a, vec2 b) {
    vec2 r = {fma(a.x, b.x, -(a.y * b.y)), fma(a.x, b.y, a.y * b.x)};
    return r;
}

/* vec.inner: a dot product by separate real products (what numpy's ray kernel takes) */
static inline double inner(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }

/* numpy's (a * b.conj()).real, rounded as ctimes rounds it */
static inline double dot(vec2 a, vec2 b) { return fma(a.x, b.x, a.y * b.y); }

/* numpy's abs of a complex number, computed as its SIMD loops compute it (not hypot):
 * the larger part times sqrt(1 + ratio^2), the square fused. */
static inline double modulus(vec2 v) {
    double re = fabs(v.x), im = fabs(v.y);
    double larger = re > im ? re : im, smaller = re > im ? im : re;
    double ratio = (larger == 0.0 || smaller == INFINITY) ? 0.0 : smaller / larger;
    return sqrt(fma(ratio, ratio, 1.0)) * larger;
}

/* One shape in its frame (geometry/_frames.LocalFrames, _kernels' columns). */
typedef struct {
    double ax, ay, bx, by, ux, uy, length, size, gx, gy;
    vec2 start, turn;
} shape;

/* frames.c */
shape load_shape(const as_shapes *shapes, intptr_t s);
vec2 to_frame(const shape *sh, vec2 point);
double ray_key(vec2 w, vec2 q, double length, double radius); /* avoid_walls.c too */
vec2 contact_of(const shape *sh, vec2 start, vec2 move, double key, vec2 *contact);
double overlap(const shape *sh, vec2 local, double radius, vec2 *normal);
double depth_of(const shape *sh, vec2 local, double radius);
vec2 without_inward(vec2 v, vec2 normal);
vec2 slide(vec2 v, vec2 normal, const vec2 *before);
int check_circles(const as_agents *agents, const as_geometry *geometry,
                  const as_circles *circles);
/* solid.c: the shapes whose bounding boxes meet the square reach px round centre (the box
 * numpy's broad phase asks about), as shapes_near lists them */
intptr_t shapes_around(as_geometry *geometry, vec2 centre, double reach);
/* dig_out.c: dig_out.dig_out for one circle that started at start, depth px deep */
void dig_out(as_geometry *geometry, vec2 start, double depth, double radius, vec2 *place,
             vec2 *speed);

#endif

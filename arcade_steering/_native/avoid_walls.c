/* AvoidWalls (behaviors/avoid.py's feel_walls, _avoid_kernels.py; the ray cast of
 * geometry/_frames.py's cast_fans and geometry/_kernels.py's ray_keys_local and
 * contact_normal), for one agent at a time. */

#include "native.h"

/* geometry/_kernels.py: the rows of the shape columns. */
enum { AX, AY, BX, BY, UX, UY, LEN, RAD, GX, GY, NCOL };
/* _frames.ON_CORE, _kernels._ON_CORE */
#define ON_CORE 1e-9
/* Buckland's feelers: front, left, right. */
#define FANS 3

/* numpy's complex times a real number: the real one made complex, then multiplied. */
static inline vec2 times_real(vec2 v, double s) {
    vec2 r = {v.x * s - v.y * 0.0, v.y * s + v.x * 0.0};
    return r;
}

/* numpy's complex divided by a real number (its complex division, for a divisor > 0). */
static inline vec2 divided(vec2 v, double d) {
    double rat = 0.0 / d, scale = 1.0 / (d + 0.0 * rat);
    vec2 r = {(v.x + v.y * rat) * scale, (v.y - v.x * rat) * scale};
    return r;
}



/* numpy.sign */
static inline double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x; }

/* One shape's columns: col(set, k, j) is column k of shape j. */
static inline double col(const as_shapes *set, int k, intptr_t j) {
    return set->cols[k * set->m + j];
}

/* _kernels.gradient's direction, at p, of shape j */
static vec2 gradient(const as_shapes *set, intptr_t j, vec2 p) {
    double wx = p.x - col(set, AX, j), wy = p.y - col(set, AY, j);
    double tau = minimum(maximum(wx * col(set, UX, j) + wy * col(set, UY, j), 0.0),
                         col(set, LEN, j));
    vec2 e = {wx - tau * col(set, UX, j), wy - tau * col(set, UY, j)};
    double distance = length(e);
    if (distance > ON_CORE) {
        vec2 r = {e.x / distance, e.y / distance};
        return r;
    }
    vec2 r = {col(set, GX, j), col(set, GY, j)};
    return r;
}

/* _kernels.ray_contact_normal: the ray from s along d touching shape j at p */
static vec2 ray_contact_normal(const as_shapes *set, intptr_t j, vec2 p, vec2 s, vec2 d) {
    double ux = col(set, UX, j), uy = col(set, UY, j);
    double along = (p.x - col(set, AX, j)) * ux + (p.y - col(set, AY, j)) * uy;
    double off = (s.y - col(set, AY, j)) * ux - (s.x - col(set, AX, j)) * uy;
    double side = off != 0.0 ? sign(off) : -sign(d.y * ux - d.x * uy);
    int on_face = along > 0.0 && along < col(set, LEN, j) && side != 0.0;
    int at_a = along <= 0.0;
    vec2 e = {p.x - (at_a ? col(set, AX, j) : col(set, BX, j)),
              p.y - (at_a ? col(set, AY, j) : col(set, BY, j))};
    double distance = length(e), speed = length(d);
    int radial = distance > ON_CORE;
    double divisor = radial ? distance : maximum(speed, ON_CORE);
    vec2 r = {(radial ? e.x : -d.x) / divisor, (radial ? e.y : -d.y) / divisor};
    if (on_face) {
        r.x = -uy * side;
        r.y = ux * side;
    }
    r.x += 0.0;
    r.y += 0.0;
    return r;
}

/* _kernels.contact_normal for one contact p of the ray from s along d with shape j, world
 * frame; inside: the ray starts inside the shape. */
static vec2 contact_normal(const as_shapes *set, intptr_t j, vec2 p, vec2 s, vec2 d, int inside) {
    double ux = col(set, UX, j), uy = col(set, UY, j);
    double wx = p.x - col(set, AX, j), wy = p.y - col(set, AY, j);
    double tau = wx * ux;
    tau += wy * uy;
    tau = minimum(maximum(tau, 0.0), col(set, LEN, j));
    vec2 e = {wx - tau * ux, wy - tau * uy};
    double distance = length(e);
    if (distance > ON_CORE) {
        vec2 r = {e.x / distance, e.y / distance};
        return r;
    }
    return inside ? gradient(set, j, s) : ray_contact_normal(set, j, p, s, d);
}

/* One feeler's first contact among the agent's candidate walls (_frames.cast_fans). */
typedef struct {
    double alpha; /* how far along the feeler, 1 for none */
    vec2 normal;  /* outward, 0 for none */
    intptr_t shape; /* -1 for none */
} contact;

/* _frames.cast_fans for one agent: each feeler's first contact with the k walls found, the
 * first of equals in their order. */
static void cast_fans(const as_shapes *set, const intptr_t *found, intptr_t k, vec2 origin,
                      const vec2 *rays, double inflate, contact *out) {
    double best[FANS];
    intptr_t win[FANS];
    vec2 start[FANS], ray[FANS], turn[FANS];
    for (int f = 0; f < FANS; f++) {
        best[f] = INFINITY;
        win[f] = -1;
    }
    for (intptr_t p = 0; p < k; p++) {
        intptr_t j = found[p];
        vec2 rotation = load(set->turn, j);
        vec2 local = cmul(minus(origin, load(set->start, j)), rotation);
        double core = col(set, LEN, j), grown = col(set, RAD, j) + inflate;
        double core_half = 0.5 * core;
        for (int f = 0; f < FANS; f++) {
            vec2 q = cmul(rays[f], rotation);
            vec2 half = times_real(q, 0.5);
            vec2 mid = plus(local, half);
            /* the bounding boxes' test, before the exact one */
            if (!(fabs(mid.y) - fabs(half.y) <= grown)) continue;
            if (!(fabs(mid.x - core_half) - fabs(half.x) <= grown + core_half)) continue;
            double key = ray_key(local, q, core, grown);
            if (key < best[f]) {
                best[f] = key;
                win[f] = j;
                start[f] = local;
                ray[f] = q;
                turn[f] = rotation;
            }
        }
    }
    for (int f = 0; f < FANS; f++) {
        out[f].alpha = 1.0;
        out[f].normal = ZERO;
        out[f].shape = win[f];
        if (win[f] < 0) continue;
        double reached = maximum(best[f], 0.0);
        vec2 touch = plus(start[f], times_real(ray[f], reached));
        double along = minimum(maximum(touch.x, 0.0), col(set, LEN, win[f]));
        vec2 off = {touch.x - along, touch.y};
        double distance = length(off);
        int on_core = distance <= ON_CORE;
        if (on_core) distance = 1.0;
        vec2 found = cmul(divided(off, distance), conjugate(turn[f]));
        if (on_core) /* a zero-thickness wall or a start on a core: pymunk's rules */
            found = contact_normal(set, win[f], plus(origin, times_real(rays[f], reached)),
                                   origin, rays[f], best[f] < 0.0);
        out[f].alpha = reached;
        out[f].normal = found;
    }
}

/* avoid._towards_nearer_end: along wall j towards its end nearer to point */
static vec2 towards_nearer_end(const as_shapes *set, intptr_t j, vec2 point) {
    vec2 direction = conjugate(load(set->turn, j));
    double along = inner(minus(point, load(set->start, j)), direction);
    if (along <= 0.5 * col(set, LEN, j)) {
        direction.x = -direction.x;
        direction.y = -direction.y;
    }
    return direction;
}

/* avoid.feel_walls for one agent: its three feelers against the walls near it, then
 * _avoid_kernels.feeler_depths and wall_push. params: length, side_angle, side_ratio. */
vec2 avoid_walls(const agent *a, as_geometry *geometry, const double *params) {
    double front = look_ahead(a, params[0]); /* avoid.feeler_length */
    intptr_t k = walls_in_reach(a, geometry, front);
    return feel_walls(a, geometry, k, front, params);
}

/* The walls whose boxes meet the agent's reach, into geometry->found; how many. One broad
 * phase serves the three feelers: they all lie within the front one's length of the agent's
 * circle. */
intptr_t walls_in_reach(const agent *a, as_geometry *geometry, double front) {
    double reach = front + a->radius;
    vec2 lo = {a->position.x - reach, a->position.y - reach};
    vec2 hi = {a->position.x + reach, a->position.y + reach};
    return shapes_near(geometry, 0, geometry->n_walls, lo, hi);
}

/* The three feelers, the front one front px long, against the k walls of geometry->found. */
vec2 feel_walls(const agent *a, as_geometry *geometry, intptr_t k, double front,
                const double *params) {
    if (k == 0) return ZERO;
    const as_shapes *set = &geometry->shapes;

    /* _avoid_kernels.feelers (and _turn: math.radians, math.cos, math.sin) */
    double angle = params[1] * (PI / 180.0);
    vec2 turn = {cos(angle), sin(angle)};
    double side = front * params[2];
    vec2 direction[FANS] = {a->heading, cmul(a->heading, turn), cmul(a->heading, conjugate(turn))};
    double lengths[FANS] = {front, side, side};
    vec2 rays[FANS];
    for (int f = 0; f < FANS; f++) rays[f] = times_real(direction[f], lengths[f]);
    contact hits[FANS];
    cast_fans(set, geometry->found, k, a->position, rays, a->radius, hits);
    if (hits[0].shape < 0 && hits[1].shape < 0 && hits[2].shape < 0) return ZERO;

    /* _avoid_kernels.feeler_depths */
    double ramp = maximum(a->radius, 1.0);
    double depth[FANS];
    int deepest = 0;
    for (int f = 0; f < FANS; f++) {
        double facing = minimum(inner(direction[f], hits[f].normal), 0.0);
        depth[f] = (hits[f].alpha - 1.0) * lengths[f] * facing;
        if (hits[f].alpha == 0.0) depth[f] = ramp;
        if (depth[f] > depth[deepest] || (isnan(depth[f]) && !isnan(depth[deepest])))
            deepest = f;
    }
    double worst = depth[deepest];
    vec2 summed = times_real(hits[0].normal, depth[0]);
    for (int f = 1; f < FANS; f++) summed = plus(summed, times_real(hits[f].normal, depth[f]));
    double size = length(summed);
    vec2 away = size > 1e-9 * worst ? divided(summed, maximum(size, 1e-300))
                                    : hits[deepest].normal;

    /* _avoid_kernels.wall_push */
    double push = minimum(worst / ramp, 1.0);
    push *= a->max_force;
    vec2 i = {0.0, 1.0};
    vec2 tangent = cmul(away, i);
    double along = inner(a->velocity, tangent);
    int backwards = along < 0.0;
    if (along == 0.0) { /* head-on: towards the nearer end of the wall the deepest feeler met */
        vec2 touch = plus(a->position, times_real(rays[deepest], hits[deepest].alpha));
        backwards = inner(towards_nearer_end(set, hits[deepest].shape, touch), tangent) < 0.0;
    }
    if (backwards) {
        tangent.x = -tangent.x;
        tangent.y = -tangent.y;
    }
    double room = a->max_force * a->max_force;
    room -= push * push;
    room = maximum(room, 0.0);
    double slide = a->max_speed - fabs(along);
    slide /= a->response_time;
    slide = minimum(maximum(slide, 0.0), sqrt(room));
    if (worst <= 0.0) return ZERO;
    return plus(times_real(away, push), times_real(tangent, slide));
}

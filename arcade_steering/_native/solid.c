/* The solid step (solid/keep_out.py): circles that start clear of every shape are swept along
 * their motion and slide along what they meet; the buried ones are dug out (dig_out.c). One
 * circle at a time, against the shapes its broad phase query lists (geometry.c), ascending. */

#include "native.h"

/* keep_out.SWEEPS */
#define SWEEPS 4

/* keep_out for one circle, its k candidates found: swept and slid as keep_out._sweep slides
 * it (place and speed in place), unless it starts inside a shape or on its surface: then
 * its depth is returned (else -1) and it is left to dig_out. The first sweep keeps in found
 * the candidates within the motion's reach (keep_out's near pairs), the later ones' own. */
static double sweep(const as_shapes *shapes, intptr_t *found, intptr_t k, vec2 source,
                    double radius, vec2 *place, vec2 *speed) {
    vec2 start = source, move = minus(*place, source), before = ZERO;
    double reach = -(modulus(move) + SKIN); /* keep_out: candidates beyond the motion */
    double deepest = -1.0;
    intptr_t met[SWEEPS]; /* the shapes met: each next sweep skips them */
    for (int round = 0; round < SWEEPS; round++) {
        double best = INFINITY;
        intptr_t win = -1, near = 0;
        for (intptr_t p = 0; p < k; p++) {
            intptr_t s = found[p];
            int skip = 0;
            for (int r = 0; r < round; r++) skip |= met[r] == s;
            if (skip) continue;
            shape sh = load_shape(shapes, s);
            vec2 local = to_frame(&sh, start);
            if (round == 0) {
                double depth = depth_of(&sh, local, radius);
                if (depth >= 0.0) deepest = maximum(deepest, depth);
                if (deepest >= 0.0 || depth < reach) continue;
                found[near++] = s; /* before p: what is still to be read stays */
            }
            double key = ray_key(local, ctimes(move, sh.turn), sh.length, sh.size + radius);
            if (key < best) { /* _kernels.first_min: the first of equals */
                best = key;
                win = s;
            }
        }
        if (deepest >= 0.0) return deepest;
        if (round == 0) k = near;
        if (win < 0) return -1.0; /* free: it ends at its target, place */
        shape sh = load_shape(shapes, win);
        vec2 contact;
        vec2 normal = contact_of(&sh, start, move, best, &contact);
        contact = plus(contact, scaled(normal, SKIN));
        const vec2 *prior = round ? &before : NULL;
        *speed = slide(*speed, normal, prior);
        vec2 rest = slide(minus(*place, contact), normal, prior);
        *place = contact;
        /* Still blocked after every sweep, or all the motion into the surfaces: done. */
        if (round == SWEEPS - 1 || !(modulus(rest) > SKIN)) return -1.0;
        *place = plus(contact, rest);
        met[round] = win;
        start = contact;
        before = normal;
        move = minus(*place, start);
    }
    return -1.0;
}

intptr_t shapes_around(as_geometry *geometry, vec2 centre, double reach) {
    vec2 lo = {centre.x - reach, centre.y - reach}, hi = {centre.x + reach, centre.y + reach};
    return shapes_near(geometry, 0, geometry->shapes.m, lo, hi);
}

int as_keep_out(const as_agents *agents, as_geometry *geometry, as_circles *circles) {
    int status = check_circles(agents, geometry, circles);
    if (status != AS_OK) return status;
    circles->buried = 0;
    for (intptr_t i = 0; i < circles->k; i++) {
        intptr_t slot = circles->slots[i];
        vec2 source = load(circles->start, i), place = load(agents->position, slot);
        vec2 speed = load(agents->velocity, slot);
        double radius = agents->radius[slot];
        /* keep_out's broad phase: a slide never gets farther from its start than its motion
         * is long */
        intptr_t k = shapes_around(geometry, source, modulus(minus(place, source)) + radius);
        double depth = sweep(&geometry->shapes, geometry->found, k, source, radius, &place,
                             &speed);
        if (depth >= 0.0) {
            circles->buried++;
            dig_out(geometry, source, depth, radius, &place, &speed);
        }
        store(agents->position, slot, place);
        store(agents->velocity, slot, speed);
    }
    return AS_OK;
}

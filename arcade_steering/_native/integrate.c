/* The integrator (component/integrate.py). */

#include "native.h"

/* integrate.integrate, up to the solid step: truncate the force, accelerate, move. */
int as_move(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
            double *start) {
    int status = check_slots(agents, rows, n);
    if (status != AS_OK) return status;
    for (intptr_t i = 0; i < n; i++) {
        intptr_t slot = rows[i];
        vec2 force = truncate(load(agents->force, slot), agents->max_force[slot]);
        store(agents->force, slot, force);
        vec2 velocity = load(agents->velocity, slot);
        vec2 change = scaled(force, dt / agents->mass[slot]);
        velocity.x += change.x;
        velocity.y += change.y;
        velocity = truncate(velocity, agents->max_speed[slot]);
        vec2 position = load(agents->position, slot);
        if (start != NULL) store(start, i, position);
        position.x += velocity.x * dt;
        position.y += velocity.y * dt;
        store(agents->position, slot, position);
        store(agents->velocity, slot, velocity);
    }
    return AS_OK;
}

/* integrate.integrate, after the solid step: headings along the velocities. */
int as_turn(const as_agents *agents, const intptr_t *rows, intptr_t n,
            double heading_min_speed) {
    int status = check_slots(agents, rows, n);
    if (status != AS_OK) return status;
    for (intptr_t i = 0; i < n; i++) {
        intptr_t slot = rows[i];
        vec2 velocity = load(agents->velocity, slot);
        double speed = length(velocity);
        if (speed > heading_min_speed) {
            vec2 heading = scaled(velocity, 1.0 / speed);
            store(agents->heading, slot, heading);
            store(agents->look, slot, heading);
        }
    }
    return AS_OK;
}

/* integrate.integrate, for agents kept out of nothing */
int as_integrate(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
                 double heading_min_speed) {
    int status = as_move(agents, rows, n, dt, NULL);
    return status == AS_OK ? as_turn(agents, rows, n, heading_min_speed) : status;
}

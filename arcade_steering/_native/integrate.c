/* The integrator (component/integrate.py). */

#include "native.h"

/* integrate.integrate, for agents kept out of nothing */
int as_integrate(const as_agents *agents, const intptr_t *rows, intptr_t n, double dt,
                 double heading_min_speed) {
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
        position.x += velocity.x * dt;
        position.y += velocity.y * dt;
        store(agents->position, slot, position);
        store(agents->velocity, slot, velocity);
        double speed = length(velocity);
        if (speed > heading_min_speed) {
            vec2 heading = scaled(velocity, 1.0 / speed);
            store(agents->heading, slot, heading);
            store(agents->look, slot, heading);
        }
    }
    return AS_OK;
}

"""Where the library meets arcade: sprite sync, the physics engine, angles, the overlay."""

"""The steering core: agent arrays, component parameters, batches, the step integrator."""

"""Small helpers with no steering knowledge: vectors as arrays, argument checks."""

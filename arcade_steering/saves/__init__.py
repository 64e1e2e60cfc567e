"""Save files: a world written to bytes or a file, and read back in this process or another.

:func:`save_world` writes what a snapshot holds, with the game's objects by name;
:func:`load_world` puts it into a world whose game built the same level and sprites. The
format is UTF-8 JSON (arrays in it as base64 of little-endian numbers), versioned, and read
as data from a stranger: no pickle, a size bound, every field checked before anything
changes.
"""

from ._format import MAX_SAVE_BYTES, SAVE_VERSION, SaveFileError
from ._read import load_world
from ._write import save_world

__all__ = ["MAX_SAVE_BYTES", "SAVE_VERSION", "SaveFileError", "load_world", "save_world"]

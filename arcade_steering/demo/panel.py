"""A box of text on an opaque backing: the demo's intro, help and end-of-round banners."""

from __future__ import annotations

from collections.abc import Sequence

import arcade
from arcade.types import RGBOrA255

Color = RGBOrA255

FILL = (18, 22, 18, 240)
BORDER = (230, 220, 120)
TEXT = (235, 235, 225)
KEY = (250, 215, 80)
PADDING = 12
LINE_GAP = 4
#: Space between a key and what it does, and between two columns of keys, px.
KEY_GAP = 10
COLUMN_GAP = 28


class Panel:
    """A title, centred lines of text and a table of keys in two columns, in a box whose top
    edge is centred on ``top``: it grows downwards and sideways with what it holds.

    The text objects are made again only when :meth:`show` is given something new, so calling
    it every frame costs nothing.

    Args:
        top: ``(x, y)`` px, the middle of the box's top edge.
        size: Font size of the lines and keys; the title is half as large again.
    """

    def __init__(self, top: tuple[float, float], size: float = 12) -> None:
        self.top = top
        self.size = size
        self._shown: tuple[object, ...] | None = None
        self._texts: list[arcade.Text] = []
        self.left = self.right = self.bottom = 0.0

    def show(
        self,
        title: str,
        lines: Sequence[str] = (),
        keys: Sequence[tuple[str, str]] = (),
        title_color: Color = BORDER,
    ) -> None:
        """Hold ``title``, then ``lines`` (centred), then ``keys`` (``(key, what it does)``
        rows, the first half in the left column)."""
        shown = (title, tuple(lines), tuple(keys), title_color)
        if shown != self._shown:
            self._shown = shown
            self._layout(title, lines, keys, title_color)

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """``(left, right, bottom, top)`` of the box, px."""
        return self.left, self.right, self.bottom, self.top[1]

    def draw(self) -> None:
        """The box, its border and its text."""
        left, right, bottom, top = self.rect
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, FILL)
        arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, BORDER, 2)
        for text in self._texts:
            text.draw()

    def _layout(
        self,
        title: str,
        lines: Sequence[str],
        keys: Sequence[tuple[str, str]],
        title_color: Color,
    ) -> None:
        x = self.top[0]
        centred = [_text(title, title_color, 1.5 * self.size, bold=True, x=x)]
        centred += [_text(line, TEXT, self.size, x=x) for line in lines]
        table, table_width = self._key_table(keys)
        rows = [[text] for text in centred] + table
        # Stacked downwards from the top edge.
        y = self.top[1] - PADDING
        for row in rows:
            y -= max(text.content_height for text in row)
            for text in row:
                text.y = y
            y -= LINE_GAP
        self._texts = [text for row in rows for text in row]
        width = max(table_width, *(text.content_width for text in centred))
        self.left, self.right = x - width / 2 - PADDING, x + width / 2 + PADDING
        self.bottom = y + LINE_GAP - PADDING

    def _key_table(self, keys: Sequence[tuple[str, str]]) -> tuple[list[list[arcade.Text]], float]:
        """``keys`` in two columns centred under the panel's middle: the rows' texts (with
        their x set) and the table's width."""
        half = (len(keys) + 1) // 2
        columns = []
        for pairs in (keys[:half], keys[half:]):
            cells = [
                (_text(key, KEY, self.size, bold=True), _text(action, TEXT, self.size))
                for key, action in pairs
            ]
            key_width = max((key.content_width for key, _ in cells), default=0.0)
            action_width = max((action.content_width for _, action in cells), default=0.0)
            columns.append((cells, key_width, key_width + KEY_GAP + action_width))
        filled = [width for cells, _, width in columns if cells]
        table_width = sum(filled) + COLUMN_GAP * max(len(filled) - 1, 0)
        rows: list[list[arcade.Text]] = [[] for _ in range(half)]
        left = self.top[0] - table_width / 2
        for cells, key_width, width in columns:
            for row, (key, action) in zip(rows, cells, strict=False):
                key.x, action.x = left, left + key_width + KEY_GAP
                row += [key, action]
            left += width + COLUMN_GAP
        return rows, table_width


def _text(
    text: str, color: Color, size: float, bold: bool = False, x: float | None = None
) -> arcade.Text:
    """A text whose ``y`` is its bottom edge: centred on ``x`` if given, else left-aligned
    (its ``x`` set later)."""
    return arcade.Text(
        text,
        0.0 if x is None else x,
        0.0,
        color,
        size,
        bold=bold,
        anchor_x="left" if x is None else "center",
        anchor_y="bottom",
    )

"""The frames ``write_now`` writes itself (``server/websocket.py``): the bytes ``websockets`` would write."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from gemtable.server.websocket import RAW_BELOW, RawWhenSmall, text_frame_header

LENGTHS = st.one_of(st.integers(0, 300), st.integers(65_000, 66_000), st.sampled_from([125, 126, 127, 65_535, 65_536]))


@given(LENGTHS, st.booleans())
def test_a_hand_made_header_frames_a_text_message_as_websockets_does(length: int, deflate: bool) -> None:
    data = b"x" * length
    extensions = [RawWhenSmall(True, True, 12, 12, {"memLevel": 5})] if deflate else []
    if deflate and length >= RAW_BELOW:
        return  # compressed: written by websockets itself
    assert text_frame_header(length) + data == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=extensions)

"""Read the top faces of dice in one frame: die bodies first, then the pips on each.

The frame is shrunk to a fixed working size (or, with a calibrated die edge, so that a die
is about WORK_DIE_PX wide) and what differs from the plain surface is cut into blobs
(vision.bodies). The die edge is the typical side of the square blobs, or the calibrated
one. Each die-sized blob is cut out of the full-resolution frame, turned upright and read
by vision.face; blobs of several dice run together are cut around each die's core.
Everything is relative to the die size: nothing is tied to one camera distance. What looks
like a die but does not read cleanly comes back as Unreadable, so the table asks for a
re-roll instead of guessing. An underexposed frame is brought up to a normal exposure first
(vision.exposure). A blob that runs into the camera's view edge is not read (cut
off, it could be anything); a region's edge (the tray wall) does not count. A pale die on a
pale surface may get no blob at all, only its dark pips stand out: clusters of pips that no
blob read holds are read as die-sized squares too (_pip_seeds), and kept only when they
read as a die.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.bodies import (COMPACT, MAX_DICE, Blob, blobs, die_size, die_size_inscribed, foreground_dist,
                           raise_level, split_at_cores, without_strips)
from vision.dice import Die, FrameReading, RotatedRect, Unreadable
from vision.exposure import denoised, exposed
from vision.face import CROP, MARGIN, crop_die, read_face
from vision.numeric import median

WORK_LONG_SIDE = 320  # working image, long side, when the die size is not known
WORK_DIE_PX = 24.0  # working die edge when it is known
MIN_BLOB_PX = 5  # smallest blob side looked at, working pixels
MIN_DIE_FRAC = 0.025  # smallest die edge, fraction of the frame's long side, when the size is not known
# largest blob side that sets the die size, fraction of the frame's short side (the dice
# of both sets are at most 0.18 of it): a tray's rim, filled, is as square as a die
MAX_DIE_FRAC = 0.4
CLOSE_FRAC = 0.025  # closing kernel for broken outlines, fraction of the working long side
MIN_AREA = 0.35  # die areas: a smaller blob is no die
SEVERAL = 1.7  # die areas: a bigger blob holds several dice, to be cut
MAX_PART = 2.2  # die areas: a bigger part is not one die (with its shadow)
# Lab spread inside a compact blob: below PLAIN it has no pips, not a die at all (a stud
# of the tray); below MIN_SPREAD it is plain enough to be a stud or a corner, yet a die
# whose pips a softer picture (blur, JPEG, another scale, gamma) has washed out lies there
# too: such a blob counts only as a die showing a layout of pips (2 or more), never as an
# unreadable die or a 1 (one dark spot is what a stud or the tray's corner shows)
PLAIN = 12.0
MIN_SPREAD = 16.0
# pip seeds (pale dice on a pale surface), in die edges unless said: a pip is darker than
# the grey closing of SEED_K by SEED_CONTRAST, on a body no darker than the frame's
# median grey less PALE; its pips lie within SEED_LINK of each other and SEED_SPAN overall; it
# is SEED_CLEAR clear of what was read, its square overlaps that by at most SEED_OVERLAP and
# its median colour distance from the surface is at most SEED_BODY
SEED_K = 0.45
SEED_CONTRAST = 30
PALE = 10.0
SEED_LINK = 0.75
SEED_SPAN = 0.85
SEED_CLEAR = 0.5
SEED_OVERLAP = 0.02
SEED_BODY = 22.0
# in a view from straight above (its read faces lean nowhere, VIEW_FACES or more of them)
# no side face shows: pip seeds keep only SEED_CLEAR_DOWN clear of what was read
SEED_CLEAR_DOWN = 0.3
SEED_WINDOW = 0.6  # half the window the square's angle is measured in
# a pale die touching a read one (byler-d6: a white die by a coloured one, neither's body in
# the other's blob): its square overlaps that die's claim with its margin by up to a third.
# A square overlapping it by up to SEED_NEAR is read too, but its die counts only when the
# face read overlaps what was read by at most SEED_OVERLAP (no margin): a read die's side
# face (penlington-wood's oblique views) adjoins that die's part, and the face read there
# reaches into its claim; a pale neighbour lies apart, its own shaded outline between;
# and when it shows SEED_NEAR_LEAST pips or more (a lone spot by a read die is as often the
# pip of its side face that the part's outline cut off: penlington-wood dice_18)
SEED_NEAR = 0.3
SEED_NEAR_LEAST = 2
# a seeded die counts only when a die-sized square centred and turned on the face it read
# reads it again (SEED_AGAIN): a square placed on a pale die by the few pips found (the rest
# run into its shadow) reads what part of it shows (byler-d6 111718's 6 as its top row's 3
# on grid none, 111228's 6 as a 4 on turn1); placed on the face read, it reads another value
SEED_AGAIN = True
# ... and when that square reads more pips than the seed did, a die of its value is there (SEED_MORE): the seed's
# square saw the part the few pips found show (111718's 6 as its top row's 3); never a wrong read over the four grids
# and the eight changed pictures (4 grids: 1 die more; changed pictures: 4 more, 1 extra on penlington-wood dark0.6)
SEED_MORE = True
# a group of pips too many or too wide for one die (SEED_SPAN) may hold spots of a pale die's
# shaded outline, its corners and edges (contrast 30-90 where its pips show 150-190): it is
# tried again with only the spots at least SEED_FAINT as dark (closing less grey) as its
# darkest. (Only then: a lone pip with such a spot by it makes a group, and a 1 reads there)
SEED_FAINT = 0.5
SQUARE = 0.75  # squareness of a blob that looks like one die
ONE_DIE = (0.6, 1.4)  # die areas: a blob of one die, its outline loose or tight
# oblique dice (a die seen from the side shows its top face and a side face, one long
# blob): the frame's read faces lie on average at least LEAN off their parts' centres (die
# edges), and the part's long axis within acos(LEAN_COS) of that direction; the top face
# is the TOP_END of the part's length at that end. A face read on a part under LEAN_SQUARE
# squareness has no say in the lean: a thin thing's part (a cable, a laptop's edge) puts
# its face where its shape does (penlington-wood dice_38 shifted: one such face, read off
# the desk's clutter and dropped later, pulled the lean of three 1s under LEAN and the
# view was taken for one from straight above). Of the faces read right on whole parts,
# 1 in 200 lies on a part under 0.4 (penlington-wood and byler-d6 alike)
LEAN = 0.1
LEAN_COS = 0.7
LEAN_SQUARE = 0.4
TOP_END = 0.5
# a part at most SQUAREISH as long as it is wide (a die's top and side faces in a ragged
# blob, its rect's long side set by a corner) has its top face along whichever axis lies
# along the lean
SQUAREISH = 1.25
# a die-like part of at most PAIR die areas still unclear after that, or an oblique die's
# part that read as nothing with no lean to tell its top end, in a view that leans (over
# LEAN) or has under VIEW_FACES read faces to tell (a lone die; one face's offset may be
# its shadow's), is read at its ends, END_SPANS of its length along either axis at either
# end: a value most of them read is its top face (_ends_agree)
END_SPANS = (0.5, 0.6)
VIEW_FACES = 2
# a die-like part that reads unclear is read again at its top-face end only in a view
# that leans clearly (its read faces at least TILTED die edges off their parts' centres)
# along one of its sides (within acos(TILT_COS)), else along the lean's own axis (a die
# turned towards its corner), LEAN_ACROSS of the part's width across it (its corners
# there are side faces'): a close, oblique camera sees a whole die, top and side faces,
# as one square blob. byler-d6's views from straight above lean under 0.11 in nine frames
# of ten and over 0.15 in none (shift1); penlington-wood's median frame leans 0.17 (at
# 0.2 its moved grids kept 5 whole dice unclear that read right at 0.15; at 0.1 byler-d6
# read a 4 as a 2)
TILTED = 0.15
TILT_COS = 0.9
LEAN_ACROSS = 0.8
# a 2 read at a top-face end (either rule above), or on a whole oblique part (measured
# from its top end), whose face centre lies over TWO_NEAR die
# edges from the end's centre toward the camera (the part's centre) is the top face's 1
# and the nearest pip of the side face below it, not a 2 (penlington-wood dice_27 0.19; the
# right 2s read so lie within 0.06, 0.12 under dark0.6 (two_28); false ones 0.16-0.3, one
# at 0.08 under blur1 (five_30) is still read)
TWO_NEAR = 0.14
# such a 2 read at a top-face end is read again on the TOP_SHORT of that end at its far
# side, and counts as the 1 when that reads a 1 (_top_read; 1.0: not): a very oblique die's
# side face is as tall as its top face, and half the part reaches into it
TOP_SHORT = 0.7
# a 2 read on a whole oblique part whose top end reads a 1 is that 1 and a side face's pip
# too, however near the end's centre it lies (TWO_END_ONE): a top face's 2 lies in the top
# end whole and reads there as a 2 (penlington-wood dice_46 under shift3, dice_25 under
# turn1: 0.10-0.12 off, under TWO_NEAR; no 2 read right on either set's four grids is lost)
TWO_END_ONE = True
# ... and one whose top end reads TWO_END_MORE pips or more is that top face: the part's 2 was two of
# its pips, the rest cut off or lying askew (penlington-wood four_25 on the moved grids; 7: not)
TWO_END_MORE = 4
# ... and so is a 2 read on a whole part of TWO_LONG squareness or less that is not _oblique's (a
# die's area and width), in a view that leans clearly (TILTED): a 1 and its side face's pip on a
# part cut short or wide (penlington-wood dice_31, dice_46 on the moved grids, dice_43, dice_27
# under dark0.6, gamma1.5; in a view that leans less, byler-d6 lost 2s read right to 1s; 0: not)
TWO_LONG = 0.75
# a 6 read on a whole part of SIX_TOP squareness or less (long: an oblique die's top and side
# faces) whose face lies off the top end toward the camera is a 4 or a 5 and its side face's
# row of pips, when its top end reads that 4 or 5 (penlington-wood five_13, five_15, four_23:
# parts 0.46-0.61; a true 6 whose top end reads a 4, its third row cut off: six_36, six_48,
# 0.70-0.97; 0: not)
SIX_TOP = 0.65
# a ragged part of a die's area that reads as nothing (a die with a shadow, a tail or a
# pale neighbour's rim run into it) is read again as a die-sized square around its
# deepest point when that lies CORE_DEPTH die edges inside its outline (nearly a whole
# die fits there); so is what a blob of dice that gave a die keeps after the parts that
# read (a die whose core the cut missed, or lost below the level it was cut at), up to
# LEFT_MOST squares, CORE_GAP die edges apart. A die read so holds back pip seeds only
# within CORE_CLAIM of its centre
CORE_DEPTH = 0.45
CORE_GAP = 0.8
LEFT_MOST = 4
CORE_CLAIM = 0.2
# a read part whose face covers less than FACE_COVER of its area holds only its face box
# out of what its blob keeps: the rest may be most of a touching die the part took in
FACE_COVER = 0.6
# a blob bigger than MAX_DICE die areas is a heap of dice when the dice read in it fill at
# least HEAP of its area (byler-d6's heaps 0.22-0.66); the tray's rim with a die or two
# read against it fills 0.02 or less: its leftover would be rim, not dice
HEAP = 0.2
# Such a heap, up to HEAP_MOST die areas, is cut at its dice's cores too (bodies.
# split_at_cores, which leaves blobs over MAX_DICE whole) once every other rule has read:
# the raised levels drop a pale die by a dark one (its body is under the level) and the
# leftover's few deepest points miss dice a heap of 9-35 die areas holds (byler-d6's). A die
# read so counts HEAP_APART die edges or more from every die read (nearer, the part
# straddled a read die and its neighbour)
HEAP_MOST = 40.0
HEAP_APART = 0.85
# A blob of several dice whose raised levels found fewer die-like parts than its area holds
# is cut at its cores instead (bodies.raise_level, split_at_cores); its raised parts are read
# too once every other rule has read (RAISED_AGAIN), a die there counting when it shows
# RAISED_LEAST pips or more (a part cut at a raised level may be a die's darker half: one
# pip, read as a 1; byler-d6 112342's black 2 did so on every grid), lies HEAP_APART die
# edges from every die read (nearer, it is one of theirs) and not where a re-roll is asked
# (a die the reader left unclear stays so: this finds the dice the cut missed, e.g. byler-d6
# 111411's 2 by the tray wall, or ran together with a neighbour)
RAISED_AGAIN = True
RAISED_LEAST = 2
# a die read from a lone blob under ONE_DIE[0] die areas (a die seen in part), or at an
# unclear part's top end (_tilted_ends: a die's blob cut into its top face and its side
# faces, penlington-wood six_18 and dice_8 moved by a pixel), whose face lies within NEAR
# die edges of another read die's is that die's side face, not a die
NEAR = 1.0
# an unclear part over PAIR die areas may be two pale dice run together by the closed mask
# (penlington-wood: a pair covers 1.4-1.6 die areas, under SEVERAL): it claims nothing from
# the pip seeds, and two dice the seeds read inside it stand for it. The pips of two such
# dice link into one group (their nearest pips under SEED_LINK apart): a group of 7-12 pips
# is cut in two at its widest gap along its long axis when that gap is SPLIT_GAP or more
# A part over PAIR die areas that read as a die its face covers little of claims its face
# box with no SEED_CLEAR margin: the other die of the pair lies closer than that margin
PAIR = 1.4
SPLIT_GAP = 0.5
# a part by a tail of a blob over TAIL_ONE die areas counts only as a die showing 2 or
# more: a cable with its plug or label is a long blob of 6-9 die areas, and a 1 is one dark
# spot, what a label's print or a plug's hole shows; a die with its shadow or a touching
# speck is a blob of 1.7-3.6 (byler-d6: 1s read so are right)
TAIL_ONE = 5.0
# a blob over REST_BLOB die areas that read a die may hold a touching neighbour (a pale
# die by a dark one: only its rim and pips join the dark die's blob): what it keeps beyond
# its read faces (grown REST_GROW die edges), opened by REST_OPEN, in pieces of REST_MIN die
# areas or more, is looked at one die edge on from the nearest face (or at the piece's
# centre when farther). Only beside a face that stands out from the surface (median colour
# distance REST_BODY, 1.5 STRONG): what a pale die's blob keeps beyond its face is its own
# side face (penlington-wood's oblique view; 12-18 there, 38-100 for byler-d6's dark dice).
# The die found counts when it shows REST_LEAST pips or more (a lone spot by a die is as
# often its shadow's edge or the read die's glint: byler-d6's 1s found so were half wrong)
# and lies REST_APART die edges from every die read. In a view that leans (LEAN) a piece
# within acos(REST_SIDE) of the camera's side of a face is that die's own side face
REST_BLOB = 1.2
REST_GROW = 0.1
REST_OPEN = 0.2
REST_MIN = 0.25
REST_BODY = 36.0
REST_LEAST = 2
REST_APART = 0.8
REST_SIDE = 0.5
# a die read from a part around a core a heap's area called for (bodies.MORE_LEAST) counts
# AREA_APART die edges or more from every other die read (a die bigger than the typical
# one, with its shadow, is a blob of as many areas as a heap: the core cut it in two)
AREA_APART = 0.7
# a die read from a part with the wall's foot cut off (bodies.without_strips) shows at least
STRIP_VALUE = 2  # pips
PAIR_END_LEAST = 3  # see _read_frame: what a long part's end read from above shows at least,
PAIR_END_APART = 1.0  # and how far (die edges) it lies from every die read
# in a view where under UP_FACES faces read to show its lean (one face's offset may be
# its shadow's, or a side face's: VIEW_FACES), the top faces of oblique dice lie UP the
# picture (image x, y) when UP_LEAST of their parts read there (_up_ends). (With no face
# at all only: penlington-wood dice_42 moved by a pixel read one 1 as a 2, the 1 and its
# side face's pip, whose lean ran sideways; its other 1s went unread.)
UP = (0.0, -1.0)
UP_LEAST = 2
UP_FACES = 2
# an unclear part whose long side is over LOOSE die edges, in a view from straight above,
# is read again as a die's square around its deepest point (byler-d6: a die with its
# shadow, or with a touching neighbour's rim, in one part; at 1.2 a 3 read as 2 twice)
# when it shows LOOSE_LEAST or more (a 1 is one dark spot: a cable label's print, a plug)
LOOSE = 1.3
LOOSE_LEAST = 2
# an unclear die-like part in a view from straight above is read again as its die's own
# square (_turned: turned to the die's edges, the colour step within TURN_BAND die edges of
# its outline; at most TURN_SIDE die edges a side, around its middle), when that is a new
# crop (_read_turned: TURN_TIGHT as long as the part's rect or less, and turned TURN_ASKEW
# degrees off it or TURN_SHRINK as long) and looks TURN_LOOK die edges aside each way read
# the same value (byler-d6: a die turned near 45 degrees in an octagon blob, a die with its
# shadow or a neighbour's rim in its part). Off: TURN False
TURN = True
TURN_BAND = 0.25
TURN_SIDE = 1.15
TURN_TIGHT = 0.95
TURN_ASKEW = 5.0
TURN_SHRINK = 0.9
TURN_LOOK = 0.03
TURNED_ROWS = True  # _pip_centres takes rows of pips turned off the axes too (False: not),
ROW_THICK = 0.12  # ... at least this thick (die edges)
# a pip seed's spot (_pip_centres), in die edges: a round pip at most PIP_LONG long and
# PIP_WIDE wide, or a six's row of pips run together at the working scale at most ROW_LONG
# long and PIP_WIDE wide, ROW_FLAT times longer than wide; either fills SPOT_FILL of its
# box and shows SPOT_LEAST a side (and 2 px: the least a spot shows at the working scale)
PIP_LONG, PIP_WIDE, ROW_LONG, ROW_FLAT = 0.4, 0.35, 0.75, 2.2
SPOT_FILL, SPOT_LEAST = 0.4, 0.08
# a part that runs into the camera's view edge is read after all, in a view from straight
# above, when it is one die's square blob (squareness over EDGE_SQUARE, ONE_DIE areas) that
# meets each edge along at most EDGE_TOUCH die edges: a die turned to the edge touches it at a
# corner, or its shadow grazes it; a thing running out of view (a laptop's key row, a cable)
# meets it along its width (penlington-wood four_45's key under shift3: a 2). _face_cut still
# drops a face that runs out of view
EDGE_SQUARE = 0.75
EDGE_TOUCH = 0.5
TURN_LEAST = 0.25  # die edges: a turned row is looked for in spots at least this long only (its box is measured)
SMALL_SQUARE = 0.85  # die edges: a core's square that reads unclear is read again this big (1.0: not; _read_square)
SMALL_LEAST = 3  # ... and that read counts when it shows this many pips or more: over a die of the full size the smaller
# square crops its face, and reads a 1 or a 2 (byler-d6 under the retake changes: 5 such wrong reads at 0.85, none at 3)
TWICE = 0.5  # die edges: a core's die this near a die read is that die again (touching dice's faces lie ~1 apart)
COARSE_GROW = 1.5  # see read_frame: a coarse reading counts when its die is this much bigger,
COARSE_SAME = 1.0  # or this much and it reads no more dice than the fine one left unclear
# a read die among UNLIKE_OTHERS or more other dice that are all pale (each face's darkest
# quarter at UNLIKE_PALE grey or brighter, its median saturation at most UNLIKE_GREY) and
# alike (their brightest quarters within UNLIKE_SPREAD grey of each other) is not one of them
# when its face's brightest quarter lies UNLIKE_DARKER or more below theirs: a laptop's key,
# a cable or a plug's label beside a set of pale dice (penlington-wood on moved grids: 12 of
# its 37 extra dice over shift1/shift3/turn1). Dice of mixed colours (byler-d6) are not alike
# and keep every die; with fewer others a lone coloured die among pale ones is one of them
UNLIKE_OTHERS = 3
UNLIKE_PALE = 140.0
UNLIKE_GREY = 50.0
UNLIKE_SPREAD = 25.0
UNLIKE_DARKER = 35.0
_K5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
# .reads: the blob reads of this thread's reading under way (_read_frame), by the frame's data,
# the blob and the scales (see _read_blob); None outside a reading: a direct call reads afresh
_READS = threading.local()


def read_frame(frame_bgr: np.ndarray, *, die_size_px: float | None = None,
               roi: tuple[int, int, int, int] | None = None) -> FrameReading:
    """Read every die in a BGR frame (optionally only inside roi = x, y, w, h).

    A frame where no die reads is read again against the coarse surface estimate
    (vision.bodies.COARSE): a lone die close to the camera fills the fine one's window, so
    only its pips stood out, and a pip's blob set the die size. The second reading counts
    only when it reads a die at least COARSE_GROW times the first one's die size (that
    was a pip's, or a part of a face's). At about the same size (COARSE_SAME or more) it
    counts when it reads no more dice than the first reading asked re-rolls for: pale
    dice seen obliquely whose fine cut left their faces unclear (penlington-wood dice_11,
    three_3) or cut only a laptop's edge (dice_37) read whole against the coarse surface;
    where it reads more dice than that, or a smaller die, the coarse estimate, which
    follows a shaded surface less, has cut the surface into extra dice and wrong values
    (six_20 blurred, three_3 and dice_27 shrunk). A calibrated die size is not set by a
    pip: no second reading.
    """
    t0 = time.perf_counter()
    reading = _read_frame(frame_bgr, die_size_px, roi, False)
    if not reading.dice and not die_size_px:
        again = _read_frame(frame_bgr, die_size_px, roi, True)
        grow = again.die_size_px / reading.die_size_px if again.dice and reading.die_size_px else 0.0
        if grow and (grow >= COARSE_GROW
                           or (grow >= COARSE_SAME and len(again.dice) <= len(reading.unreadable))):
            reading = again
    return replace(reading, ms=(time.perf_counter() - t0) * 1000.0)


def _read_frame(frame_bgr: np.ndarray, die_size_px: float | None, roi: tuple[int, int, int, int] | None,
                coarse: bool) -> FrameReading:
    """read_frame's one reading, against the fine or the coarse surface estimate (read_frame
    times it); its blob reads kept for it alone (_READS: a camera may fill the same array
    with its next frame)."""
    _READS.reads = {}
    try:
        return _read_frame_once(frame_bgr, die_size_px, roi, coarse)
    finally:
        _READS.reads = None


def _read_frame_once(frame_bgr: np.ndarray, die_size_px: float | None, roi: tuple[int, int, int, int] | None,
                     coarse: bool) -> FrameReading:
    """read_frame's one reading (see _read_frame)."""
    ox = oy = 0
    full_h, full_w = frame_bgr.shape[:2]
    if roi is not None:
        x, y, w, h = (int(v) for v in roi)
        ox, oy = max(0, x), max(0, y)
        frame_bgr = frame_bgr[oy:y + h, ox:x + w]
    if frame_bgr.ndim == 2:
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    fh, fw = frame_bgr.shape[:2]
    if fh < 8 or fw < 8:
        return FrameReading()
    frame_bgr = exposed(frame_bgr)  # an underexposed frame's contrasts fall under every floor
    frame_bgr = denoised(frame_bgr)  # a noisy frame (a small sensor, a dim room) breaks planes and pips into pieces
    if die_size_px:
        s = min(1.0, WORK_DIE_PX / float(die_size_px))
    else:
        s = min(1.0, WORK_LONG_SIDE / max(fh, fw))
    work = cv2.resize(frame_bgr, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1.0 else frame_bgr
    mask, dist = foreground_dist(work, coarse)
    cands = blobs(mask, MIN_BLOB_PX)
    # the sides of the working image that are the camera's own edges (not a region's)
    edges = (ox == 0, oy == 0, ox + fw >= full_w, oy + fh >= full_h)
    # specks and lone pips are square too, and so are a tray's filled rim and a cut speck (_sizers)
    view = (full_h * s, full_w * s)  # the camera's frame in working pixels (a region's is smaller)
    die = float(die_size_px) * s if die_size_px else die_size(_sizers(cands, work.shape, edges, view))
    if die is None and cands:
        # no square blob: pale dice on a pale surface stand out only by their outlines and
        # pips, broken rings; closing the mask at a fraction of the frame fills them in
        k = max(3, int(round(max(work.shape[:2]) * CLOSE_FRAC)) | 1)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        cands = blobs(mask, MIN_BLOB_PX)
        # (the inscribed circle sizes from every blob: given _sizers' blobs only, penlington-wood
        # under shift3, turn1 and jpeg40 each lost a die and read an extra one)
        die = die_size(_sizers(cands, work.shape, edges, view)) or die_size_inscribed(cands, mask)
    if die is None or not cands:
        return FrameReading(die_size_px=die_size_px)
    dice: list[Die] = []
    unreadable: list[Unreadable] = []
    sides: list[float] = []
    claimed: list[np.ndarray] = []
    oblique: list[Blob] = []
    lean: list[tuple[float, float]] = []
    ragged: list[Blob] = []
    twos: list[tuple[Blob, Die]] = []  # 2s read on whole oblique-shaped parts
    sixes: list[tuple[Blob, Die]] = []  # 6s read on whole parts that may be oblique dice
    cabled: list[Blob] = []  # long parts of a blob with a tail (a cable's)
    unclear: list[tuple[Blob, Unreadable]] = []
    left: list[tuple[np.ndarray, tuple[int, int]]] = []
    pairs: list[tuple[Blob, Unreadable]] = []  # unclear parts that may be two dice
    tight: list[np.ndarray] = []  # claimed without the SEED_CLEAR margin
    small: list[Die] = []  # dice read from a lone blob smaller than a die
    by_area: list[Die] = []  # dice read from a part around a core the blob's area called for
    # blobs that read a die, its read faces and its unclear parts' outlines
    rest: list[tuple[Blob, list[np.ndarray], list[np.ndarray]]] = []
    heaps: list[Blob] = []  # blobs over MAX_DICE die areas, under HEAP_MOST, in view
    at_edge: list[Blob] = []  # die-shaped parts that touch the view's edge (_whole_die)
    unraised: list[Blob] = []  # raised parts of blobs cut at their cores instead (RAISED_AGAIN)

    def take(result: Die, claim: np.ndarray | None = None, side: float | None = None) -> None:
        """Keep a die read, with what it claims from the pip seeds and its die edge (frame
        pixels; a die edge when read from a square or an end, not a part of its own)."""
        if claim is not None:
            claimed.append(claim)
        dice.append(result)
        sides.append(die / s if side is None else side)

    for blob in cands:
        if blob.area < MIN_AREA * die * die:
            continue
        parts = [blob]
        if blob.area > SEVERAL * die * die:
            # cut at higher levels when that finds as many dice as the area holds, or when
            # the blob is too big to be only dice (a die against the tray wall)
            raised, n = raise_level(blob, mask, dist, die, MIN_BLOB_PX)
            if n and (n >= round(blob.area / (die * die)) or blob.area > MAX_DICE * die * die):
                parts = raised
            elif n and RAISED_AGAIN:
                unraised.extend(raised)
        by_tail: list[Blob] = []
        held: list[np.ndarray] = []
        faces: list[np.ndarray] = []  # the faces read in the blob (working pixels)
        vague: list[np.ndarray] = []  # its unclear parts (a re-roll is asked there already)
        n_read = 0
        parts = [q for p in parts
                 for q in (split_at_cores(p, mask, die, by_tail, not _cut_by_view(p, work.shape, edges))
                           if p.area > SEVERAL * die * die else [p])]
        # a part by a tail (a cable) is as likely the thing the cable ends in (its plug, a
        # label on it): it counts only when a die's shape and size and read as a die
        n_parts = len(parts)
        parts += [p for p in by_tail if p.squareness > SQUARE and p.area < SEVERAL * die * die]
        for i, part in enumerate(parts):
            # a part is one die's, perhaps with its shadow (at most a core's reach around)
            if part.area > MAX_PART * die * die:
                continue
            if _cut_by_view(part, work.shape, edges):
                if _whole_die(part, die, work.shape, edges):
                    at_edge.append(part)
                continue
            result = _read_blob(frame_bgr, part, s, die)
            if result is None and _oblique(part, die):
                oblique.append(part)
                if by_tail:
                    cabled.append(part)
            elif (result is None and i < n_parts and part.squareness <= COMPACT
                  and ONE_DIE[0] * die * die < part.area < MAX_PART * die * die):
                ragged.append(part)
            if result is None or (i >= n_parts and not _tail_die(result, blob.area / (die * die))):
                continue
            # a part its face covers little of holds, and claims from the pip seeds, only
            # its face: a pale neighbour in it is the seeds' to find
            held.append(_held(part, result, s))
            if isinstance(result, Unreadable) and part.area > PAIR * die * die:
                pairs.append((part, result))
            elif part.area > PAIR * die * die and held[-1] is not part.contour:
                tight.append(held[-1])  # a pair's read die: its neighbour's pips lie close
            else:
                claimed.append(held[-1])
            if isinstance(result, Die):
                n_read += 1
                faces.append(_face(result, s))
                if part is blob and part.area < ONE_DIE[0] * die * die:
                    small.append(result)
                if part.by_area:
                    by_area.append(result)
                take(result, side=part.side / s)
                if result.value == 2 and (_oblique(part, die) or part.squareness <= TWO_LONG):
                    twos.append((part, result))
                if result.value == 6 and part.squareness <= SIX_TOP:
                    sixes.append((part, result))
                # where the face read lies in its part, in die edges: an oblique die's top face
                # lies off its part's centre, on the side away from the camera (a thin part's
                # face lies where the thing's shape puts it: LEAN_SQUARE)
                if part.squareness >= LEAN_SQUARE:
                    lean.append(((result.box[0][0] * s - part.rect[0][0]) / die,
                                 (result.box[0][1] * s - part.rect[0][1]) / die))
            else:
                vague.append(held[-1])
                unreadable.append(result)
                if i < n_parts:
                    unclear.append((part, result))
        if n_read and SEVERAL * die * die < blob.area and (blob.area <= MAX_DICE * die * die
                                                          or n_read * die * die >= HEAP * blob.area):
            left.append(_leftover(blob, held, mask))
        if n_read and REST_BLOB * die * die < blob.area <= MAX_DICE * die * die:
            rest.append((blob, faces, vague))
        if (MAX_DICE * die * die < blob.area <= HEAP_MOST * die * die and n_read * die * die >= HEAP * blob.area
                and not _cut_by_view(blob, work.shape, edges)
                and cv2.countNonZero(left[-1][0]) >= ONE_DIE[0] * die * die):
            heaps.append(blob)
    # a 2 or a 6 read on a whole oblique part, top face and side face together, gives way to
    # what its top end reads (_top_face_instead); a 2 on a part not so long only in a view
    # that leans clearly (TWO_LONG: else a 2 seen from above and its shadow)
    tilted = _frame_lean(lean, TILTED) is not None
    for part, whole in twos + sixes:
        if whole.value == 2 and not (tilted or _oblique(part, die)):
            continue
        for _, end in _top_ends([part], lean):
            off = _off_end(whole, part, end, s) > TWO_NEAR * die
            if whole.value == 6 and not off:
                continue  # centred in its top end: the top face's own 6
            result = _top_read(frame_bgr, part, end, s, die)
            if isinstance(result, Die) and _top_face_instead(whole.value, result.value, off):
                dice, sides = _kept(dice, sides, [d is not whole for d in dice])
                take(result)
    # oblique dice whose two faces together did not read: the top face is the end of the
    # part on the side the frame's read dice lean to (the view's tilt is one for the frame)
    for part, end in _top_ends(oblique, lean):
        result = _top_read(frame_bgr, part, end, s, die)
        if isinstance(result, Die):
            take(result, part.contour)
    # die-like parts that read unclear in a view that leans clearly: a whole die, top face
    # and the side face turned to the camera; the top face is the end the read faces lean to
    # (a die read there NEAR a read die's face is that die's side face: its re-roll stays)
    for part, end, u in _tilted_ends(unclear, lean):
        result = _top_read(frame_bgr, part, end, s, die)
        if isinstance(result, Die) and _apart(result, dice, NEAR * die / s):
            unreadable = [x for x in unreadable if x is not u]
            take(result)
    # die-like parts still unclear where the view may be oblique (its read faces lean, or
    # too few were read to tell: a lone die): the top face is the larger face, so most of
    # the part's ends read it. A view from straight above shows faces square on: their
    # halves read as parts of them (a 4's as 2s), so nothing is cut there
    tilt = _frame_lean(lean, LEAN)  # the read faces are all in: lean is final
    if len(lean) < VIEW_FACES or tilt is not None:
        for part, u in unclear:
            if part.area <= PAIR * die * die and any(x is u for x in unreadable):
                result = _ends_agree(frame_bgr, part, s, die)
                if result is not None:
                    unreadable = [x for x in unreadable if x is not u]
                    take(result)
        # so are oblique dice's parts that read as nothing when no lean told their top end
        for part in oblique if tilt is None else ():
            result = _ends_agree(frame_bgr, part, s, die)
            if result is not None:
                take(result, part.contour)
    # oblique and unclear parts still unread where (almost) no face read to tell the lean (a
    # very oblique view: every die's side face looks as big as its top): their top faces
    # lie up the picture when several of them read there (_up_ends). Not on a calibrated
    # tray (roi): the appliance's camera looks straight down on it, so the picture has no up
    if len(lean) < UP_FACES and roi is None:
        still = oblique + [p for p, u in unclear if p.area <= PAIR * die * die and any(x is u for x in unreadable)]
        for part, result in _up_ends(frame_bgr, [p for p in still if not _holds_read(p, dice, s)], s, die):
            if _apart(result, dice, TWICE * die / s):  # an end _ends_agree read already
                unreadable = [u for u in unreadable if not _on_unclear(result, [u])]
                take(result, part.contour)
    # what blobs of dice keep beyond their read parts, then ragged parts that read as
    # nothing: a die there is a square around the deepest point
    cores = [c for m, at in left for c in _deepest(m, at, die, LEFT_MOST)]
    whose: list[Blob | None] = [None] * len(cores)
    shallow: list[Blob] = []
    for p in ragged:
        found = _deepest(*p.filled(1), die, 1)
        cores += found
        whose += [p] * len(found)
        if not found:
            shallow.append(p)
    down = tilt is None and len(lean) >= VIEW_FACES
    # die-like parts still unclear in a view from straight above: read again as the die's
    # own square, turned to its edges and no bigger than a die (TURN, _read_turned)
    for p, u in unclear if down and TURN else ():
        if not any(x is u for x in unreadable):
            continue
        result = _read_turned(frame_bgr, p, s, die)
        if result is not None:
            # (a part that may hold two dice keeps its re-roll, as LOOSE's do: the other may be in it unread)
            if p.area <= PAIR * die * die:
                unreadable = [x for x in unreadable if x is not u]
            take(result)
    # ragged parts with no deep point and, in a view from straight above (where no die
    # shows a side face: a long part is no die seen aslant), long parts: a die with the
    # wall's foot run into it; the strip cut off, the die-shaped piece left is the die when
    # it shows STRIP_VALUE or more (a 1 is one dark spot: a key's print on a laptop's edge)
    for p in shallow + (oblique if down else []):
        if _holds_read(p, dice, s):
            continue
        for q in without_strips(p, die):
            if q.squareness <= COMPACT:
                continue
            result = _read_blob(frame_bgr, q, s, die)
            if isinstance(result, Die) and result.value >= STRIP_VALUE:
                take(result, q.contour)
    # long parts still unread in a view from straight above: two dice side by side, cut as
    # one at a raised level; a die-sized square at each end of the long axis is one of them
    # when it shows PAIR_END_LEAST or more (a 4's half is a 2; a 1 is what a plug's hole
    # shows), PAIR_END_APART die edges from every die read (an oblique view taken for one
    # from above: a die's side face) and the part is no cable's (its blob has no tail: a
    # ferrite bead)
    for p in oblique if down else []:
        if any(p is c for c in cabled) or _holds_read(p, dice, s):
            continue
        ax, ay, along = _long_axis(p.rect)
        for sign in (1.0, -1.0):
            q = _end_rect(p, (ax, ay), along, sign, (die, die), math.degrees(math.atan2(ay, ax)),
                          min(1.0, die / along))
            if _cut_by_view(q, work.shape, edges):
                continue
            result = _read_blob(frame_bgr, q, s, die)
            if (isinstance(result, Die) and result.value >= PAIR_END_LEAST
                    and _apart(result, dice, PAIR_END_APART * die / s)):
                take(result, q.contour)
    for sq, p in zip(_squares(work, cores, die), whose):
        if _cut_by_view(sq, work.shape, edges):
            continue
        result = _read_square(frame_bgr, sq, s, die)
        # TWICE die edges from every die read: a part read by its strip or its ends above
        # stays in its blob's leftover, and a core there would read its die again
        if isinstance(result, Die) and _apart(result, dice, TWICE * die / s):
            # its middle only: a pale neighbour's pips beside it are still pip seeds
            take(result, _core_claim(sq, die))
            # its face is one of its blob's read faces; a ragged part of two dice that read
            # one here may hold the other beside it
            face = _face(result, s)
            into = [fs for b, fs, _ in rest if _in_part(b, result, s)]
            for fs in into:
                fs.append(face)
            if not into and p is not None and p.area > REST_BLOB * die * die:
                rest.append((p, [face], []))
    # unclear parts wider than a die in a view from straight above: a die with its shadow or
    # a neighbour's rim, whose crop was the whole part; a die's square at its deepest point
    # is the die when it shows LOOSE_LEAST or more; its re-roll is dropped only when the
    # part is too small to hold a second die (PAIR): else the other may be in it unread
    for p, u in unclear if down else ():
        if max(p.rect[1]) <= LOOSE * die or not any(x is u for x in unreadable):
            continue
        for sq in _squares(work, _deepest(*p.filled(1), die, 1), die):
            result = _read_blob(frame_bgr, sq, s, die)
            if isinstance(result, Die) and result.value >= LOOSE_LEAST and _apart(result, dice, TWICE * die / s):
                if p.area <= PAIR * die * die:
                    unreadable = [x for x in unreadable if x is not u]
                take(result, _core_claim(sq, die))
    # a die touching one that read, its body not cut from it (a pale die by a dark one:
    # only its rim joins the blob): one die edge on from the read face, toward what is left
    for sq in _neighbours(work, mask, dist, rest, die, tilt):
        if _cut_by_view(sq, work.shape, edges):
            continue
        result = _read_blob(frame_bgr, sq, s, die)
        if isinstance(result, Die) and result.value >= REST_LEAST and _apart(result, dice, REST_APART * die / s):
            take(result, _core_claim(sq, die))
            # the die read where a re-roll was asked for one die is that die (an unclear
            # part of two stays: the pairs' rule below tells when both were read)
            unreadable = [u for u in unreadable if any(u is x for _, x in pairs) or not _on_unclear(result, [u])]
    # pale dice on a pale surface: their bodies barely differ from it, their pips do
    # a view from straight above shows no read die's side faces: a touching neighbour's pips
    # lie closer to it than SEED_CLEAR
    for blob, near in _pip_seeds(work, dist, die, claimed, tight, SEED_CLEAR_DOWN if down else SEED_CLEAR):
        if _cut_by_view(blob, work.shape, edges):
            continue
        result = _read_blob(frame_bgr, blob, s, die)
        if not isinstance(result, Die):
            continue
        if near and (result.value < SEED_NEAR_LEAST or _covered(_face(result, s), claimed + tight) > SEED_OVERLAP):
            continue  # a read die's side face, or a lone spot by it
        if not SEED_AGAIN or _read_again_at_face(frame_bgr, result, s, die):
            take(result)
        elif SEED_MORE:
            # the square on the face read more pips than the seed's: the seed saw part of the face
            again = _read_at_face(frame_bgr, result, s, die)
            if isinstance(again, Die) and again.value > result.value and _apart(again, dice, TWICE * die / s):
                take(again)
    # an unclear part that two seeded dice lie in was those two dice
    for part, u in pairs:
        if sum(_in_part(part, d, s) for d in dice) >= 2:
            unreadable = [x for x in unreadable if x is not u]
    # die-shaped parts that only touch the camera's view edge, in a view from straight above
    # (an oblique view's edge cuts things on the desk: keys, a mug): a die read there counts
    for part in at_edge if down else ():
        if _holds_read(part, dice, s):
            continue
        result = _read_blob(frame_bgr, part, s, die)
        if isinstance(result, Die) and _apart(result, dice, TWICE * die / s):
            take(result, part.contour)
    # heaps of dice over MAX_DICE die areas: what their cut at the cores reads beside the dice
    # read so far (a re-roll asked for where it reads was for that die)
    for blob in heaps:
        tails: list[Blob] = []  # (a part by a tail is a cable's: not read)
        for part in split_at_cores(blob, mask, die, tails, True, HEAP_MOST):
            # (a part _read_again says is a read die's is not read: the cut's reads are a
            # heap's many, a frame's slowest)
            if (part.area > MAX_PART * die * die or _cut_by_view(part, work.shape, edges)
                    or _read_again(part, dice, s, die)):
                continue
            result = _read_blob(frame_bgr, part, s, die)
            if isinstance(result, Die) and _apart(result, dice, HEAP_APART * die / s):
                unreadable = [u for u in unreadable if not _on_unclear(result, [u])]
                take(result, _core_claim(part, die))
    # the raised parts of blobs of several dice that were cut at their cores instead: a die
    # the cut at the cores missed or ran together with its neighbour
    for part in unraised:
        if (not ONE_DIE[0] * die * die < part.area <= MAX_PART * die * die or _cut_by_view(part, work.shape, edges)
                or _read_again(part, dice, s, die)):
            continue
        result = _read_blob(frame_bgr, part, s, die)
        if (isinstance(result, Die) and result.value >= RAISED_LEAST and _apart(result, dice, HEAP_APART * die / s)
                and not _on_unclear(result, unreadable)):
            take(result, _core_claim(part, die))
    # a lone blob smaller than a die that read as one within NEAR die edges of another die
    # read is that die's side face (a pale die's side shows its pips, its outline not):
    # two dice's top faces lie a die edge apart at least
    if small:
        dice, sides = _kept(dice, sides, [not any(d is x for x in small) or _apart(d, dice, NEAR * die / s)
                                          for d in dice])
    # a die read around a core the blob's area called for counts AREA_APART die edges
    # from every other die read (as one found beside a read die does): closer, the blob
    # was one die bigger than the typical one with its shadow, and that core cut it in two
    if by_area:
        dice, sides = _kept(dice, sides, [not any(d is x for x in by_area) or _apart(d, dice, AREA_APART * die / s)
                                          for d in dice])
        # the re-roll asked for where such a die now reads was for that die: the unclear
        # part around the heap's one core straddled it and its neighbours
        kept = [d for d in by_area if any(d is x for x in dice)]
        unreadable = [u for u in unreadable if not any(_on_unclear(d, [u]) for d in kept)]
    # a face that runs out of the camera's view is part of one (as a blob that does is not
    # read): a keyboard's or a bag's blob by the edge read as its visible part of a face
    cut = [_face_cut(d, fw, fh, edges) for d in dice]
    if any(cut):
        dice, sides = _kept(dice, sides, [not c for c in cut])
    if len(dice) > UNLIKE_OTHERS:
        dice, sides = _kept(dice, sides, _alike(frame_bgr, dice))
    dice, unreadable = _offset(dice, unreadable, ox, oy)
    size = float(die_size_px) if die_size_px else (float(np.median(sides)) if sides else die / s)
    return FrameReading(tuple(dice), tuple(unreadable), size)


def _sizers(cands: list[Blob], shape: tuple[int, ...], edges: tuple[bool, bool, bool, bool],
            view: tuple[float, float]) -> list[Blob]:
    """The blobs that may set the die size: not specks or lone pips (under MIN_DIE_FRAC of the
    camera's frame, `view`, in working pixels; they are square too), not a tray's filled rim
    (over MAX_DIE_FRAC of it), and not blobs the camera's view cuts off when the square
    blobs are all such: a cut blob's shape is the cut's. (Among square blobs it is one of
    many: dropping it only moves their median.) The bounds are the frame's, not a region's
    (`shape`): a tray region a few dice wide must not bar its own dice.

    The die size is the median of the densest run of a few square blobs, and which blobs
    those are must not hang on a pixel: moved by one pixel, byler-d6 113004's square stud
    by the tray ran into the rim, the tray (254 px, as square as a die) tied with the one
    die left and won, and 7 dice were lost; penlington-wood four_35's only square blob was
    a speck cut square by the frame's corner, a die of 15 px instead of 33: 4 dice lost.
    """
    least = MIN_DIE_FRAC * max(view)
    most = MAX_DIE_FRAC * min(view)
    out = [b for b in cands if least <= b.side <= most]
    square = [b for b in out if b.squareness > COMPACT]
    if square and all(_cut_by_view(b, shape, edges) for b in square):
        out = [b for b in out if not _cut_by_view(b, shape, edges)]
    return out


def _read_turned(frame: np.ndarray, part: Blob, s: float, die: float) -> Die | None:
    """The die an unclear part reads as its die's own square (_turned), or None.

    Only a new crop is read: the square TURN_TIGHT or less of the part's rect long, and
    turned TURN_ASKEW degrees or more off it unless TURN_SHRINK or less (nearly the rect
    again, it reads as a look again would, and a look's read on a face that read unclear
    is as often wrong as right). It counts when looks TURN_LOOK die edges aside each way
    read the same value: a die's square reads its face on every grid, a square that cuts
    a glint or a neighbour's rim in two does not.
    """
    sq = _turned(frame, part, s, die)
    long, was = max(sq.rect[1]), max(part.rect[1])
    askew = abs((sq.rect[2] - part.rect[2] + 45.0) % 90.0 - 45.0)
    if long >= TURN_TIGHT * was or (askew < TURN_ASKEW and long > TURN_SHRINK * was):
        return None
    again = _read_blob(frame, sq, s, die)
    if not isinstance(again, Die):
        return None
    (cx, cy), wh, a = sq.rect
    for d in (TURN_LOOK * die, -TURN_LOOK * die):
        look = _read_blob(frame, replace(sq, rect=((cx + d, cy + d), wh, a)), s, die)
        if not (isinstance(look, Die) and look.value == again.value):
            return None
    return again


def _turned(frame: np.ndarray, blob: Blob, s: float, die: float) -> Blob:
    """The blob's die's square: turned to the die's edges, at most TURN_SIDE die edges
    long either way, around the middle of the blob's outline along those edges.

    A die's rounded corners, its shadow or a neighbour's rim make its blob an octagon or a
    ragged square, whose least rectangle (minAreaRect) may lie up to 45 degrees off the
    die's edges and take in the rest: the crop then holds the die askew, small, cut at its
    corners or with its neighbour. The die's edges are the straight runs of the colour
    step across the blob's outline: the strongest direction, modulo a quarter turn, of the
    frame's Lab gradients within TURN_BAND die edges of the outline (not the pips' or a
    glint's inside it; the working mask's outline itself is too coarse: its steps are
    45 degrees).
    """
    x, y, w, h = cv2.boundingRect(blob.contour)
    g = TURN_BAND * die
    x0, y0 = max(0, int((x - g) / s)), max(0, int((y - g) / s))
    x1, y1 = min(frame.shape[1], int((x + w + g) / s) + 1), min(frame.shape[0], int((y + h + g) / s) + 1)
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    m = np.zeros(lab.shape[:2], np.uint8)
    cv2.drawContours(m, [np.rint(blob.contour / s - np.array([x0, y0])).astype(np.int32)], -1, 255, -1)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(round(g / s)) | 1),) * 2)
    band = ((cv2.dilate(m, k) > 0) & (cv2.erode(m, k) == 0)).astype(np.float32)
    sin4 = cos4 = 0.0
    for ch in cv2.split(lab):
        gx, gy = cv2.Sobel(ch, cv2.CV_32F, 1, 0), cv2.Sobel(ch, cv2.CV_32F, 0, 1)
        m2, th = (gx * gx + gy * gy) * band, np.arctan2(gy, gx)
        sin4 += float((m2 * np.sin(4 * th)).sum())
        cos4 += float((m2 * np.cos(4 * th)).sum())
    a = math.atan2(sin4, cos4) / 4
    ca, sa = math.cos(a), math.sin(a)
    c = blob.contour.reshape(-1, 2).astype(np.float64)
    u, v = c @ np.array([ca, sa]), c @ np.array([-sa, ca])
    mu, mv = (u.min() + u.max()) / 2, (v.min() + v.max()) / 2
    most = TURN_SIDE * die
    size = (min(float(np.ptp(u)), most), min(float(np.ptp(v)), most))
    # (the blob's own outline still masks the crop: what lies off it is not the die's)
    return replace(blob, rect=((mu * ca - mv * sa, mu * sa + mv * ca), size, math.degrees(a)))


def _read_blob(frame: np.ndarray, blob: Blob, s: float, die: float) -> Die | Unreadable | None:
    """Read one die blob (working pixels) from the full-resolution frame, once a reading.

    Two rules may look at the very same square (_up_ends at an end _top_ends read, the
    oblique parts' _ends_agree at an end read already: on penlington-wood one frame in six
    reads one twice), and the face reader is a frame's dearest step: within a reading
    (_read_frame, _READS) a blob read before gives that read again, as a new object (the
    rules tell dice apart by identity).
    """
    reads = getattr(_READS, "reads", None)
    if reads is None:
        return _read_blob_once(frame, blob, s, die)
    c = blob.contour
    key = (frame.__array_interface__["data"][0], frame.shape, blob.rect, blob.area, c.shape, c.dtype.str,
           c.tobytes(), s, die)
    if key not in reads:
        reads[key] = _read_blob_once(frame, blob, s, die)
    read = reads[key]
    return None if read is None else replace(read)


def _read_blob_once(frame: np.ndarray, blob: Blob, s: float, die: float) -> Die | Unreadable | None:
    """Read one die blob (working pixels) from the full-resolution frame."""
    (cx, cy), (w, h), angle = blob.rect
    side = max(w, h, 0.8 * die) / s
    centre = (cx / s, cy / s)
    patch, m = crop_die(frame, centre, side, angle)
    mw = m.copy()
    mw[:, :2] /= s
    poly = cv2.transform(blob.contour.reshape(-1, 1, 2).astype(np.float32), mw)
    pmask = np.zeros((CROP, CROP), np.uint8)
    cv2.fillPoly(pmask, [np.rint(poly).astype(np.int32).reshape(-1, 2)], 255)
    # the second colour axis (hue-only pips) is for blobs that already look like a die
    square = blob.squareness > SQUARE and ONE_DIE[0] * die * die < blob.area < ONE_DIE[1] * die * die
    plain = False
    if blob.squareness > COMPACT:
        spread = _spread(patch, pmask)
        if spread <= PLAIN:
            # a compact thing of one colour: no pips, no die (a stud of the tray), not worth
            # reading; a ragged blob may be a pale die's shaded part, its pips outside it
            return None
        plain = spread <= MIN_SPREAD
    read = read_face(patch, pmask, second_axis=square)
    if plain and (read.value is None or read.value < 2):
        return None
    if read.value is None:
        # a die-like part that does not read, a single die or dice heaped too close to cut
        # at their cores: a re-roll, not silence
        if blob.squareness > COMPACT and ONE_DIE[0] * die * die < blob.area < MAX_PART * die * die:
            return Unreadable(((centre[0], centre[1]), (side, side), float(angle)), read.reason or "unclear")
        return None
    inv = cv2.invertAffineTransform(m)
    fx, fy = inv @ np.array([read.centre[0], read.centre[1], 1.0])
    fside = read.side * side * MARGIN / CROP
    return Die(read.value, ((float(fx), float(fy)), (fside, fside), float(angle)), read.confidence)


def _read_square(frame: np.ndarray, sq: Blob, s: float, die: float) -> Die | Unreadable | None:
    """_read_blob on a core's die-sized square, and again SMALL_SQUARE as big when it reads unclear.

    The square's size is the frame's die size; a smaller die (a set of mixed dice) leaves
    the surface around it in the square, and on a pale tray that draws the split of body
    from surface wrong (a white die's shaded side taken for its body): a smaller square
    holds its face only. (Not for _neighbours' squares: one die edge from a read die, on a
    noisy tray, the smaller square read the tray's grain as a 2 or a 4.)
    """
    result = _read_blob(frame, sq, s, die)
    if isinstance(result, Unreadable) and SMALL_SQUARE < 1.0:
        small = SMALL_SQUARE * die
        again = _read_blob(frame, _rect_blob((sq.rect[0], (small, small), sq.rect[2])), s, die)
        if isinstance(again, Die) and again.value >= SMALL_LEAST:
            return again
    return result


def _in_part(part: Blob, read: Die, s: float) -> bool:
    """Does a read die's face centre (frame pixels) lie in the part (working pixels)?"""
    return cv2.pointPolygonTest(part.contour, (read.box[0][0] * s, read.box[0][1] * s), False) >= 0


def _holds_read(part: Blob, dice: list[Die], s: float) -> bool:
    """Has a die been read in the part already (so it is not searched again)?"""
    return any(_in_part(part, d, s) for d in dice)


def _read_again(part: Blob, dice: list[Die], s: float, die: float) -> bool:
    """Is a part of a late cut (a heap's, RAISED_AGAIN's) a read die's again: it holds one,
    or its centre lies TWICE die edges (working pixels) near one's?"""
    (px, py), _, _ = part.rect
    return (any(math.hypot(d.box[0][0] * s - px, d.box[0][1] * s - py) < TWICE * die for d in dice)
            or _holds_read(part, dice, s))


def _core_claim(sq: Blob, die: float) -> np.ndarray:
    """The middle (CORE_CLAIM) of a die-sized square that read: what it claims from the pip seeds."""
    c, _, a = sq.rect
    return _box((c, (CORE_CLAIM * die,) * 2, a))


def _kept(dice: list[Die], sides: list[float], keep: list[bool]) -> tuple[list[Die], list[float]]:
    """The dice (and their sides, in step) that keep marks."""
    return [d for d, k in zip(dice, keep) if k], [v for v, k in zip(sides, keep) if k]


def _tail_die(result: Die | Unreadable | None, areas: float) -> bool:
    """Does a part by a tail of a blob of `areas` die areas count (see TAIL_ONE)?"""
    return isinstance(result, Die) and (result.value >= 2 or areas <= TAIL_ONE)


def _apart(die: Die, dice: list[Die], gap: float) -> bool:
    """Does the die's face lie at least gap (frame pixels) from every other die's?"""
    (x, y), _, _ = die.box
    return all(math.hypot(d.box[0][0] - x, d.box[0][1] - y) >= gap for d in dice if d is not die)


def _held(part: Blob, result: Die | Unreadable, s: float) -> np.ndarray:
    """What a read part holds out of its blob's leftover (a contour, working pixels).

    A part that read as a die whose face box covers less than FACE_COVER of it holds only
    that box: the cut around the dice's cores can give one die's part most of a touching
    die (in byler-d6's heaps, the cut's line runs through the neighbour), whose core is
    then left to be searched. An unclear part, or one its face fills, holds all of itself
    (a cable's loop read as a die has a face box the size of the loop: nothing is left).
    """
    if isinstance(result, Die):
        (fx, fy), (fw, fh), angle = result.box
        if fw * fh * s * s < FACE_COVER * part.area:
            return _box(((fx * s, fy * s), (fw * s, fh * s), angle))
    return part.contour


def _leftover(blob: Blob, held: list[np.ndarray], mask: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """The blob's pixels of the mask, less its parts that read (as Blob.filled(1)).

    Its outline filled would close the gaps a heap of dice encloses: the surface between
    four dice is a hole of the mask a die's square would fit in.
    """
    m, (x, y) = blob.filled(1)
    if held:
        cv2.drawContours(m, [c - np.array([x, y]) for c in held], -1, 0, -1)
    h, w = m.shape
    pad = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    return cv2.bitwise_and(m, pad[y + 1:y + 1 + h, x + 1:x + 1 + w]), (x, y)


def _deepest(m: np.ndarray, at: tuple[int, int], die: float, most: int) -> list[tuple[float, float]]:
    """Up to `most` points of a mask at least CORE_DEPTH die edges inside it, deepest first,
    CORE_GAP apart (working pixels: the mask lies at `at`)."""
    dt = cv2.distanceTransform(m, cv2.DIST_L2, 3)
    out: list[tuple[float, float]] = []
    for _ in range(most):
        _, depth, _, (px, py) = cv2.minMaxLoc(dt)
        if depth < CORE_DEPTH * die:
            break
        out.append((float(px + at[0]), float(py + at[1])))
        cv2.circle(dt, (px, py), int(round(CORE_GAP * die)), 0, -1)
    return out


def _squares(work: np.ndarray, centres: list[tuple[float, float]], die: float) -> list[Blob]:
    """Die-sized squares at the centres, each turned to the strongest edge direction around it.

    A die with its shadow, a cable's end or a pale neighbour's rim run into it makes a
    ragged part that reads as nothing; the die is still the part's thickest place, its
    inscribed circle about half a die edge, and its own edges and pip rows give its turn.
    """
    if not centres:
        return []
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    out = []
    for cx, cy in centres:
        rect = ((cx, cy), (die, die), _square_angle(grey, cx, cy, int(round(SEED_WINDOW * die))))
        out.append(_rect_blob(rect))
    return out


def _on_unclear(die: Die, unreadable: list[Unreadable]) -> bool:
    """Does the die's centre lie in a box a re-roll is asked for (one die, not read and unclear)?"""
    at = (float(die.box[0][0]), float(die.box[0][1]))
    return any(cv2.pointPolygonTest(cv2.boxPoints(u.box).astype(np.float32), at, False) >= 0 for u in unreadable)


def _neighbours(work: np.ndarray, mask: np.ndarray, dist: np.ndarray,
                rest: list[tuple[Blob, list[np.ndarray], list[np.ndarray]]],
                die: float, tilt: tuple[float, float, float] | None) -> list[Blob]:
    """Die-sized squares where a blob that read a die keeps a piece beyond its read faces.

    Two touching dice make one blob; the one that stands out (a dark die by a pale one)
    reads, and its part, or the blob the cut left uncut, takes the other in: a pale die
    by a dark one has only its rim and pips in the mask, no core of its own. What the blob
    keeps beyond its faces lies on the neighbour's side; the neighbour's centre is a die
    edge on from the read face that way (touching), or the piece's centre when farther.
    """
    if not rest:
        return []
    centres: list[tuple[float, float]] = []
    g = max(1, int(round(REST_GROW * die)))
    ko = max(3, int(round(REST_OPEN * die)) | 1)
    kop = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko))
    for blob, faces, vague in rest:
        m, (x, y) = _leftover(blob, [], mask)
        fm = np.zeros_like(m)
        cv2.drawContours(fm, [f - np.array([x, y]) for f in faces + vague], -1, 255, -1)
        fm = cv2.dilate(fm, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * g + 1, 2 * g + 1)))
        m = cv2.morphologyEx(cv2.bitwise_and(m, cv2.bitwise_not(fm)), cv2.MORPH_OPEN, kop)
        n, _, st, cen = cv2.connectedComponentsWithStats(m, connectivity=8)
        fc = [f.reshape(-1, 2).mean(0) + np.array([-x, -y]) for f in faces]
        for i in range(1, n):
            if st[i, cv2.CC_STAT_AREA] < REST_MIN * die * die:
                continue
            c = cen[i]
            j = min(range(len(fc)), key=lambda k: float(np.hypot(*(c - fc[k]))))
            if _body(dist, faces[j]) < REST_BODY:
                continue  # a pale die: what its blob keeps beyond its face is its own side
            f = fc[j]
            v = c - f
            d = float(np.hypot(*v))
            if d <= 0 or (tilt is not None and -(v[0] * tilt[0] + v[1] * tilt[1]) / (d * tilt[2]) > REST_SIDE):
                continue  # toward the camera in a view that leans: the die's own side face
            at = f + v / d * max(die, d)
            centres.append((float(at[0] + x), float(at[1] + y)))
    return _squares(work, centres, die)


def _face(die: Die, s: float) -> np.ndarray:
    """A read die's face box as a contour (working pixels)."""
    (cx, cy), (w, h), angle = die.box
    return _box(((cx * s, cy * s), (w * s, h * s), angle))


def _body(dist: np.ndarray, face: np.ndarray) -> float:
    """The median colour distance from the surface inside a face's outline (working pixels)."""
    x, y, w, h = cv2.boundingRect(face)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(dist.shape[1], x + w), min(dist.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0  # the box lies off the frame
    m = np.zeros((h, w), np.uint8)
    cv2.drawContours(m, [face - np.array([x, y])], -1, 255, -1)
    d = dist[y0:y1, x0:x1][m[y0 - y:y1 - y, x0 - x:x1 - x] > 0]
    return median(d) if d.size else 0.0


def _long_axis(rect: RotatedRect) -> tuple[float, float, float]:
    """The unit vector along a rect's longer side, and that side's length (minAreaRect's
    angle is its first side's, the longer or not)."""
    (_, _), (w, h), angle = rect
    a = math.radians(angle)
    return (math.cos(a), math.sin(a), w) if w >= h else (-math.sin(a), math.cos(a), h)


def _oblique(blob: Blob, die: float) -> bool:
    """Could the blob be one die seen obliquely: a die's area, long, no narrower than a die?"""
    (_, _), (w, h), _ = blob.rect
    return (blob.squareness <= COMPACT and ONE_DIE[0] * die * die < blob.area < ONE_DIE[1] * die * die
            and min(w, h) > 0.7 * die)


def _top_ends(parts: list[Blob], lean: list[tuple[float, float]]) -> list[tuple[Blob, Blob]]:
    """(part, its top-face end) of oblique dice's parts, by the way the frame's read faces lean.

    In a tilted view the camera sees a die's top face and the side face turned to it: the
    top face lies at the end of the die's blob away from the camera, the same way for every
    die in the frame, so the read dice show which end it is. No lean, or a part lying
    across it: no end (nothing is guessed; its end along the lean's own axis, as
    _tilted_ends takes it, read 1s off cables and plugs as often as dice), unless the part
    is nearly as wide as long (SQUAREISH) and its short axis lies along the lean: then its
    end that way (penlington-wood dice_46's 1 over a 4: a ragged part 95 x 80 px).
    """
    at = _frame_lean(lean, LEAN) if parts else None
    if at is None:
        return []
    vx, vy, norm = at
    out = []
    for blob in parts:
        (_, _), (w, h), angle = blob.rect
        ax, ay, _ = _long_axis(blob.rect)
        dot = (ax * vx + ay * vy) / norm
        long, short = max(w, h), min(w, h)
        if abs(dot) < LEAN_COS:
            # a ragged part nearly as wide as long: its short axis is the one along the lean
            # (within acos(LEAN_COS) whenever the long one is not, LEAN_COS being under cos 45)
            bx, by = -ay, ax
            dot = (bx * vx + by * vy) / norm
            if long <= SQUAREISH * short:
                out.append((blob, _end_rect(blob, (bx, by), short, dot, (short * TOP_END, long),
                                            math.degrees(math.atan2(by, bx)))))
            continue
        size = (long * TOP_END, short) if w >= h else (short, long * TOP_END)
        out.append((blob, _end_rect(blob, (ax, ay), long, dot, size, angle)))
    return out


def _tilted_ends(parts: list[tuple[Blob, Unreadable]], lean: list[tuple[float, float]]
                 ) -> list[tuple[Blob, Blob, Unreadable]]:
    """(part, its top-face end, its Unreadable) of unclear parts, when the view leans clearly.

    A die-like part may be a whole die seen from the side (its blob nearly square: top
    face and side face together); its top face is the TOP_END of the part along the rect
    axis nearer the lean (within acos(TILT_COS)), at the lean's end; a part whose sides
    both lie farther off the lean (a die turned towards its corner) has its end taken
    along the lean's own axis (_lean_end: penlington-wood three_34's 3). No clear lean
    (TILTED): nothing.
    """
    at = _frame_lean(lean, TILTED) if parts else None
    if at is None:
        return []
    vx, vy, norm = at
    out = []
    for blob, u in parts:
        (_, _), (w, h), angle = blob.rect
        a = math.radians(angle)
        axes = ((math.cos(a), math.sin(a), w, h), (-math.sin(a), math.cos(a), h, w))
        ax, ay, along, across = max(axes, key=lambda t: abs(t[0] * vx + t[1] * vy))
        dot = (ax * vx + ay * vy) / norm
        if abs(dot) < TILT_COS:
            out.append((blob, _lean_end(blob, vx / norm, vy / norm), u))
            continue
        size = (along * TOP_END, across)
        out.append((blob, _end_rect(blob, (ax, ay), along, dot, size, math.degrees(math.atan2(ay, ax))), u))
    return out


def _off_end(die_read: Die, part: Blob, end: Blob, s: float) -> float:
    """How far (working pixels) a die read on a whole part is centred off its top end's centre toward the part's centre."""
    (ex, ey), (px, py) = end.rect[0], part.rect[0]
    vx, vy = ex - px, ey - py
    n = math.hypot(vx, vy)
    if n == 0.0:
        return 0.0
    fx, fy = die_read.box[0][0] * s - ex, die_read.box[0][1] * s - ey
    return -(fx * vx + fy * vy) / n


def _top_face_instead(whole: int, top: int, off: bool) -> bool:
    """Is the die a whole part's top end reads (top pips) the die, in place of the 2 or 6
    read on the whole part, whose face lies off (TWO_NEAR) the end's centre toward the camera?

    A 2 off the end is the top face's 1 and the side face's nearest pip (_one_and_side_pip):
    any other value the end reads is the die; so is a 1 there however near (TWO_END_ONE), or
    4-6 pips (TWO_END_MORE: the 2 was two of them). A 6 off the end is a 4 or a 5 and its side
    face's row of pips below it when the end reads that 4 or 5 (SIX_TOP); a true 6's top end
    reads the 6, or nothing.
    """
    if whole == 2:
        return top != 2 and (off or (TWO_END_ONE and top == 1) or top >= TWO_END_MORE)
    return off and top in (4, 5)


def _one_and_side_pip(die_read: Die, part: Blob, end: Blob, s: float, die: float) -> bool:
    """Is a 2 read at a part's top-face end centred over TWO_NEAR die edges off the end's
    centre toward the part's centre (the camera's side)?

    A very oblique die's side face looks as big as its top face or bigger, and the end
    taken as the top face then reaches into it: the top face's 1 and the side face's
    nearest pip lie on a diagonal as a 2's spots do. A 2 on the top face is centred in the
    end; this pair's middle lies half a pip row nearer the camera.
    """
    return die_read.value == 2 and _off_end(die_read, part, end, s) > TWO_NEAR * die


def _top_read(frame: np.ndarray, part: Blob, end: Blob, s: float, die: float) -> Die | Unreadable | None:
    """What a part's top-face end reads: a 2 there that is the top face's 1 and a side
    face's pip (_one_and_side_pip) is read again on the TOP_SHORT of the end at its far
    side, and counts as that 1 (else nothing).

    A very oblique die's side face looks as big as its top face or bigger: the end, half
    the part's length, reaches into the side face by its nearest pip row. The top face's
    1 lies in the middle of the top face, a quarter of the part's length in from its far
    edge; the shorter end holds it and not the side face's pips.
    """
    r = _read_blob(frame, end, s, die)
    if not (isinstance(r, Die) and _one_and_side_pip(r, part, end, s, die)):
        return r
    if TOP_SHORT >= 1.0:
        return None
    (ex, ey), (w, h), angle = end.rect
    (px, py), _, _ = part.rect
    n = math.hypot(ex - px, ey - py)
    if n == 0.0:
        return None
    ux, uy = (ex - px) / n, (ey - py) / n
    a = math.radians(angle)
    ax, ay = math.cos(a), math.sin(a)
    if abs(ax * ux + ay * uy) >= abs(-ay * ux + ax * uy):
        along, size = w, (w * TOP_SHORT, h)
    else:
        along, size = h, (w, h * TOP_SHORT)
    off = along * (1.0 - TOP_SHORT) / 2.0
    again = _read_blob(frame, _rect_blob(((ex + off * ux, ey + off * uy), size, angle)), s, die)
    return again if isinstance(again, Die) and again.value == 1 else None


def _lean_end(blob: Blob, ax: float, ay: float) -> Blob:
    """The TOP_END end of the part along the lean's own axis (ax, ay, a unit vector),
    LEAN_ACROSS as wide as the part across it: a die turned towards its corner (its
    outline's axes half way between the lean and across it) has its top face at that end
    all the same, and the end along either of its sides takes in a side face's pips."""
    c = blob.contour.reshape(-1, 2).astype(np.float64)
    t = c @ np.array([ax, ay])
    u = c @ np.array([-ay, ax])
    t0, t1, u0, u1 = float(t.min()), float(t.max()), float(u.min()), float(u.max())
    along, across = t1 - t0, (u1 - u0) * LEAN_ACROSS
    mt = t1 - along * TOP_END / 2.0
    mu = (u0 + u1) / 2.0
    centre = (mt * ax - mu * ay, mt * ay + mu * ax)
    return _rect_blob((centre, (along * TOP_END, across), math.degrees(math.atan2(ay, ax))))


def _ends_agree(frame: np.ndarray, part: Blob, s: float, die: float) -> Die | None:
    """The value most of an unclear part's ends read (END_SPANS of it along either axis, at
    either end), when ends along both axes read it and more ends read it than read any
    other value together; else None.

    A die seen obliquely, top face and the side face turned to the camera, reads unclear
    as a whole. Its ends along either axis: the top face's end and the two lengthwise ends
    (the top face, the larger face while the view is less than 45 degrees off vertical,
    holds most of their pips) read the top face; only the side face's end reads the side.
    Two spans, as where the faces meet is not known: a span that takes in a row of the
    side's pips reads one value, the other span another, and the die is left unclear.
    No frame lean needed: it settles a lone die. The side face's end does not read the top
    face: a value read at both ends of each axis (at one span or the other) is a face seen
    square on, its halves each showing part of its pips (a 4's halves read as 2s).
    """
    (_, _), (w, h), angle = part.rect
    a = math.radians(angle)
    votes: dict[int, list[tuple[int, float, Die]]] = {}  # value: (axis, span, read) of each end
    axes = ((math.cos(a), math.sin(a), w, h), (-math.sin(a), math.cos(a), h, w))
    for span in END_SPANS:
        for k, (ax, ay, along, across) in enumerate(axes):
            for sign in (1.0, -1.0):
                end = _end_rect(part, (ax, ay), along, sign, (along * span, across),
                                math.degrees(math.atan2(ay, ax)), span)
                r = _read_blob(frame, end, s, die)
                if isinstance(r, Die):
                    votes.setdefault(r.value, []).append((k, span, r))
        if not votes:
            return None  # no end of the first span reads: a cable's or a keyboard's part, most often
    if not votes:
        return None
    best = max(votes.values(), key=len)
    if len({k for k, _, _ in best}) < 2 or 2 * len(best) <= sum(len(v) for v in votes.values()):
        return None  # not read along both axes, or not by most ends
    both = [(k, span) for k, span, _ in best]
    if all(any(both.count((k, span)) == 2 for span in END_SPANS) for k in (0, 1)):
        return None  # read at both ends of each axis: a face seen square on (a 4's halves are 2s)
    return max((r for _, _, r in best), key=lambda r: r.confidence)


def _up_ends(frame: np.ndarray, parts: list[Blob], s: float, die: float) -> list[tuple[Blob, Die]]:
    """(part, the die its far end reads) of oblique parts still unread in a view where no
    face read to show its lean, when UP_LEAST or more of them read at that end; else none.

    A camera that sees dice from the side is tilted forward from straight down and held
    upright: the table's far side lies up the picture, and there a die's top face (its
    side face below it, toward the camera). Its part lies along that way (within
    acos(LEAN_COS)), its top face the TOP_END of it up the picture (penlington-wood: the
    read faces of 223 of the 230 frames whose faces lean lean up within 70 degrees). One
    part alone may be a cable's plug or a keyboard's key: several dice must read so.
    """
    ux, uy = UP
    out = []
    for part in parts:
        ax, ay, along = _long_axis(part.rect)
        (_, _), (w, h), _ = part.rect
        dot = ax * ux + ay * uy
        if abs(dot) < LEAN_COS:
            continue
        end = _end_rect(part, (ax, ay), along, dot, (along * TOP_END, min(w, h)), math.degrees(math.atan2(ay, ax)))
        r = _top_read(frame, part, end, s, die)
        if isinstance(r, Die):
            out.append((part, r))
    return out if len(out) >= UP_LEAST else []


def _frame_lean(lean: list[tuple[float, float]], floor: float) -> tuple[float, float, float] | None:
    """The frame's lean (vx, vy) and its length: the mean of its read faces' offsets from
    their parts' centres, in die edges. None when no face was read or it is no longer than
    floor (a view seen from straight above leans nowhere, and noise must not pick an end)."""
    if not lean:
        return None
    vx, vy = np.mean(lean, axis=0).tolist()
    norm = math.hypot(vx, vy)
    return None if norm <= floor else (vx, vy, norm)


def _end_rect(blob: Blob, axis: tuple[float, float], along: float, dot: float,
              size: tuple[float, float], angle: float, span: float = TOP_END) -> Blob:
    """The span (TOP_END) end of the part along axis (its length there: along), at the end
    dot's sign points to, as a rect of the given size and angle: where a tilted die's top
    face lies."""
    (cx, cy), _, _ = blob.rect
    off = math.copysign(along * (1.0 - span) / 2.0, dot)
    return _rect_blob(((cx + off * axis[0], cy + off * axis[1]), size, angle))


def _box(rect: RotatedRect) -> np.ndarray:
    """A rotated rectangle's corners as an integer contour (working pixels)."""
    return np.rint(cv2.boxPoints(rect)).astype(np.int32).reshape(-1, 1, 2)


def _rect_blob(rect: RotatedRect) -> Blob:
    """A rotated rectangle as a blob: where a die is looked for without a blob of its own."""
    return Blob(rect, rect[1][0] * rect[1][1], _box(rect))


def _cut_by_view(blob: Blob, shape: tuple[int, ...], edges: tuple[bool, bool, bool, bool]) -> bool:
    """Does the blob run into the edge of the camera's view?

    Its shape and face are cut off, so what it is cannot be told: a die half out of view
    is no more a die than the end of a cable is. (A region's own edge, the tray wall, does
    not count: dice lie against it.)
    """
    x, y, w, h = cv2.boundingRect(blob.contour)
    return ((edges[0] and x <= 0) or (edges[1] and y <= 0)
            or (edges[2] and x + w >= shape[1]) or (edges[3] and y + h >= shape[0]))


def _whole_die(blob: Blob, die: float, shape: tuple[int, ...], edges: tuple[bool, bool, bool, bool]) -> bool:
    """Is a blob the camera's view cuts (_cut_by_view) one whole die's that only touches
    the view's edge (EDGE_SQUARE, EDGE_TOUCH)?"""
    if not (blob.squareness > EDGE_SQUARE and ONE_DIE[0] * die * die < blob.area < ONE_DIE[1] * die * die):
        return False
    pts = blob.contour.reshape(-1, 2)
    h, w = shape[:2]
    sides = ((pts[:, 0] <= 0, 1), (pts[:, 1] <= 0, 0), (pts[:, 0] >= w - 1, 1), (pts[:, 1] >= h - 1, 0))
    return all(not (view and on.any() and np.ptp(pts[on, along]) > EDGE_TOUCH * die)
               for view, (on, along) in zip(edges, sides))


def _face_pixels(frame: np.ndarray, die: Die) -> tuple[np.ndarray, np.ndarray]:
    """A read die's face box (frame pixels; BGR), every other row and column: enough for
    its quartiles; and the mask of its face in it (both empty off the frame). (The mask
    picks from the patch's grey or saturation, not from the colour patch: a boolean index
    of a colour image costs twice the conversion.)"""
    face = _box(die.box)
    x, y, w, h = cv2.boundingRect(face)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(frame.shape[1], x + w), min(frame.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 0, 3), np.uint8), np.zeros((0, 0), bool)
    patch = frame[y0:y1:2, x0:x1:2]
    m = np.zeros(patch.shape[:2], np.uint8)
    cv2.fillConvexPoly(m, np.rint((face.reshape(-1, 2) - np.array([x0, y0])) / 2.0).astype(np.int32), 1)
    return patch, m > 0


def _quartiles(grey: np.ndarray) -> tuple[float, float]:
    """The 25th and 75th percentiles of a face's grey (0, 0 for no pixels)."""
    n = grey.size
    if not n:
        return 0.0, 0.0
    lo, hi = (n - 1) // 4, (3 * (n - 1)) // 4
    part = np.partition(grey, (lo, hi))
    return float(part[lo]), float(part[hi])


def _alike(frame: np.ndarray, dice: list[Die]) -> list[bool]:
    """Which read dice to keep: see UNLIKE_OTHERS (False for one much darker than a set of
    pale dice alike). The saturation is looked at only for a frame with such a dark face."""
    px = [_face_pixels(frame, d) for d in dice]
    grey = [_quartiles(cv2.cvtColor(p, cv2.COLOR_BGR2GRAY)[m]) if m.any() else (0.0, 0.0) for p, m in px]
    bright = sorted(hi for _, hi in grey)
    if bright[0] > bright[1] - UNLIKE_DARKER:
        return [True] * len(dice)  # no face lies far below the others'
    sat: dict[int, float] = {}  # each face's median saturation, measured once when first asked

    def saturation(j: int) -> float:
        if j not in sat:
            p, m = px[j]
            sat[j] = median(cv2.cvtColor(p, cv2.COLOR_BGR2HSV)[..., 1][m]) if m.any() else 0.0
        return sat[j]

    keep = []
    for i, (_, hi) in enumerate(grey):
        others = [j for j in range(len(dice)) if j != i]
        top = [grey[j][1] for j in others]
        if (hi > min(top) - UNLIKE_DARKER or max(top) - min(top) > UNLIKE_SPREAD
                or any(grey[j][0] < UNLIKE_PALE for j in others)):
            keep.append(True)
            continue
        keep.append(max(saturation(j) for j in others) > UNLIKE_GREY)
    return keep


def _face_cut(die: Die, fw: int, fh: int, edges: tuple[bool, bool, bool, bool]) -> bool:
    """Does the die's face (its inscribed circle) run past an edge of the camera's view
    (frame pixels, a frame fw x fh)?"""
    (cx, cy), (side, _), _ = die.box
    r = side / 2.0
    return ((edges[0] and cx < r) or (edges[1] and cy < r)
            or (edges[2] and cx > fw - r) or (edges[3] and cy > fh - r))


def _spread(patch: np.ndarray, mask: np.ndarray) -> float:
    """How much the colour varies inside a die's outline (Lab, along its widest axis).

    A die shows pips, so its face is never of one colour; a plain round thing of a die's
    size (a stud of the tray, a button) is. A compact blob this plain is not read at all.
    """
    inner = cv2.erode(mask, _K5)
    # (its pixels by their flat indices, in the same order: a boolean index of a colour
    # image costs twice as much)
    pix = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).take(np.flatnonzero(inner), axis=0)
    n = len(pix)
    if n < 10:
        return 0.0
    # the sample covariance (as np.cov, in float64), by OpenCV: a third of np.cov's cost
    cov, _ = cv2.calcCovarMatrix(pix.astype(np.float64), None, cv2.COVAR_NORMAL | cv2.COVAR_ROWS)
    return float(np.sqrt(max(0.0, _largest_eigenvalue(cov.tolist()) / (n - 1))))


def _largest_eigenvalue(a: list[list[float]]) -> float:
    """The largest eigenvalue of a symmetric 3x3 matrix, in closed form (Smith's).

    Plain floats: a fifth of np.linalg.eigvalsh's call on so small a matrix.
    """
    (a00, a01, a02), (_, a11, a12), (_, _, a22) = a
    p1 = a01 * a01 + a02 * a02 + a12 * a12
    q = (a00 + a11 + a22) / 3.0
    b00, b11, b22 = a00 - q, a11 - q, a22 - q
    p2 = b00 * b00 + b11 * b11 + b22 * b22 + 2.0 * p1
    if p2 <= 0.0:
        return q
    p = math.sqrt(p2 / 6.0)
    det = (b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02))
    r = min(1.0, max(-1.0, det / (2.0 * p * p * p)))
    return q + 2.0 * p * math.cos(math.acos(r) / 3.0)


def _median_u8(a: np.ndarray) -> float:
    """np.median of 8-bit values, by their histogram (the mean of the middle two when even)."""
    n = a.size
    cum = np.cumsum(np.bincount(a.ravel(), minlength=256))
    lo, hi = np.searchsorted(cum, [(n - 1) // 2 + 1, n // 2 + 1])
    return (float(lo) + float(hi)) / 2.0


def _offset(dice: list[Die], unreadable: list[Unreadable], ox: int, oy: int) -> tuple[list[Die], list[Unreadable]]:
    if not (ox or oy):
        return dice, unreadable

    def move(box: RotatedRect) -> RotatedRect:
        (cx, cy), size, a = box
        return ((cx + ox, cy + oy), size, a)

    return ([Die(d.value, move(d.box), d.confidence) for d in dice],
            [Unreadable(move(u.box), u.reason) for u in unreadable])


def _covered(face: np.ndarray, claims: list[np.ndarray]) -> float:
    """The fraction of a face's outline (working pixels) that the claims cover."""
    x, y, w, h = cv2.boundingRect(face)
    if not claims or w <= 0 or h <= 0:
        return 0.0
    at = np.array([x, y])
    m, f = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    cv2.drawContours(m, [c - at for c in claims], -1, 255, -1)
    cv2.drawContours(f, [face - at], -1, 255, -1)
    return np.count_nonzero(m[f > 0]) / max(1, np.count_nonzero(f))


def _read_again_at_face(frame: np.ndarray, read: Die, s: float, die: float) -> bool:
    """Does a die-sized square centred and turned on the face read read it again (SEED_AGAIN)?"""
    again = _read_at_face(frame, read, s, die)
    return isinstance(again, Die) and again.value == read.value


def _read_at_face(frame: np.ndarray, read: Die, s: float, die: float) -> Die | Unreadable | None:
    """_read_blob on a die-sized square centred and turned on the face read (SEED_AGAIN, SEED_MORE).

    (Asked twice of one seed, it is read once: _read_blob keeps a reading's reads.)"""
    (fx, fy), _, angle = read.box
    return _read_blob(frame, _rect_blob(((fx * s, fy * s), (die, die), angle)), s, die)


def _pip_seeds(work: np.ndarray, dist: np.ndarray, die: float, claimed: list[np.ndarray],
               tight: list[np.ndarray] | None = None, clear: float = SEED_CLEAR) -> list[tuple[Blob, bool]]:
    """Die-sized squares around clusters of dark pips that no blob read so far holds, each
    with whether it runs into what was read (by more than SEED_OVERLAP, up to SEED_NEAR).

    A pale die on a pale surface gets no body in the foreground mask, only its pips and
    a shaded side; its pips are still dark round spots of a pip's size, two to six of them
    within a die's span. Such a cluster on a pale body that differs little from the
    surface (not the keys of a keyboard, not a cable's dark bead), away from what was
    read already (a read die's side faces, seen obliquely, show pips too; `tight` holds
    claims with no margin around them), becomes a
    square die candidate turned to the strongest edge direction around it; the face
    reader confirms it or it is dropped. A square that runs into what was read by up to
    SEED_NEAR is one too, so marked (its face read must lie clear of the claims: SEED_NEAR).
    """
    L = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    k = max(3, int(round(SEED_K * die)) | 1)
    se = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.morphologyEx(L, cv2.MORPH_CLOSE, se)
    diff = cv2.subtract(closed, L)
    dark = cv2.threshold(diff, SEED_CONTRAST, 255, cv2.THRESH_BINARY)[1]
    pts = _pip_centres(dark, die)
    if len(pts) < 2:
        return []
    hh, ww = L.shape
    pi = np.clip(np.rint(pts).astype(np.int32), 0, [ww - 1, hh - 1])
    surf = _median_u8(L[::3, ::3])
    # on a pale body (the closing fills a pip in with its body's lightness)
    keep = closed[pi[:, 1], pi[:, 0]] >= surf - PALE
    taken = np.zeros(L.shape, np.uint8)
    if claimed:
        cv2.drawContours(taken, claimed, -1, 255, -1)
        kd = max(1, int(round(clear * die)) | 1)
        taken = cv2.dilate(taken, cv2.getStructuringElement(cv2.MORPH_RECT, (kd, kd)))
        keep &= taken[pi[:, 1], pi[:, 0]] == 0
    if tight:
        cv2.drawContours(taken, tight, -1, 255, -1)
        keep &= taken[pi[:, 1], pi[:, 0]] == 0
    pts, pi = pts[keep], pi[keep]
    if len(pts) < 2:
        return []
    # the pips of one die lie within SEED_LINK die edges of each other
    links = np.zeros(L.shape, np.uint8)
    r = max(1, int(round(SEED_LINK * die / 2)))
    for x, y in pi:
        cv2.circle(links, (int(x), int(y)), r, 255, -1)
    _, groups = cv2.connectedComponents(links, connectivity=8)
    gid = groups[pi[:, 1], pi[:, 0]]
    rh = int(round(SEED_WINDOW * die))
    out: list[tuple[Blob, bool]] = []

    def fits(p: np.ndarray) -> bool:
        return 2 <= len(p) <= 6 and np.ptp(p, axis=0).max() <= SEED_SPAN * die

    tried: list[np.ndarray] = []
    depth = None
    for g in np.unique(gid):
        parts = _two(pts[gid == g], die)
        if not all(fits(p) for p in parts):
            # a shaded outline's spots in it: its darker spots only (SEED_FAINT)
            depth = _spot_depths(dark, diff, pi) if depth is None else depth
            mine = depth[gid == g]
            dark_g = (gid == g) & (depth >= SEED_FAINT * np.max(mine, initial=0.0, where=np.isfinite(mine)))
            if np.count_nonzero(dark_g) < np.count_nonzero(gid == g):
                parts = _two(pts[dark_g], die)
        tried += parts
    for p in tried:
        if not fits(p):
            continue
        cx, cy = p.mean(0)
        rect = ((float(cx), float(cy)), (die, die), _square_angle(L, cx, cy, rh))
        box = _box(rect)
        bx, by, bw, bh = cv2.boundingRect(box)
        bx0, by0 = max(0, bx), max(0, by)
        sq = np.zeros((bh, bw), np.uint8)
        cv2.fillPoly(sq, [box - np.array([bx, by])], 255)
        inside = sq[by0 - by:by0 - by + hh - by0, bx0 - bx:bx0 - bx + ww - bx0] > 0
        tk = taken[by0:by0 + inside.shape[0], bx0:bx0 + inside.shape[1]][inside]
        held = np.count_nonzero(tk)
        if held > SEED_NEAR * len(tk):
            continue  # runs into a die read already (its side face)
        if median(dist[by0:by0 + inside.shape[0], bx0:bx0 + inside.shape[1]][inside]) > SEED_BODY:
            continue  # a body that differs from the surface had its own blob
        out.append((Blob(rect, die * die, box), bool(held > SEED_OVERLAP * len(tk))))
    return out


def _two(p: np.ndarray, die: float) -> list[np.ndarray]:
    """A group of 7-12 pips cut in two at its widest gap along its long axis, when that gap
    is SPLIT_GAP die edges or more: two neighbouring dice's pips linked into one group.
    Any other group as it is."""
    if not 7 <= len(p) <= 12:
        return [p]
    c = p - p.mean(0)
    t = c @ np.linalg.svd(c, full_matrices=False)[2][0]
    o = np.argsort(t)
    k = int(np.argmax(np.diff(t[o]))) + 1
    return [p[o[:k]], p[o[k:]]] if t[o[k]] - t[o[k - 1]] >= SPLIT_GAP * die else [p]


def _spot_depths(dark: np.ndarray, diff: np.ndarray, at: np.ndarray) -> np.ndarray:
    """How far (grey levels under the closing) the spot of the dark mask each point (x, y)
    lies on goes at its darkest; infinite for a point off every spot (a ring's centre)."""
    n, lab = cv2.connectedComponents(dark, connectivity=8)
    deepest = np.zeros(n, np.float32)
    on = dark > 0
    np.maximum.at(deepest, lab[on], diff[on].astype(np.float32))
    deepest[0] = np.inf
    return deepest[lab[at[:, 1], at[:, 0]]]


def _pip_centres(dark: np.ndarray, die: float) -> np.ndarray:
    """The centres (x, y) of the spots of a dark mask shaped like a pip or a row of pips."""
    # (contours, not labelled components: these cost a fraction on a sparse mask)
    cs, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(cs) < 2:
        return np.zeros((0, 2), np.float32)
    st = np.array([cv2.boundingRect(c) for c in cs], np.float32).reshape(-1, 4)
    w, h = st[:, 2], st[:, 3]
    lo, hi = np.minimum(w, h), np.maximum(w, h)
    # a round pip, or a row of a six's pips run together (PIP_*, ROW_*)
    pip = (hi <= PIP_LONG * die) & (hi <= ROW_FLAT * lo)
    row = (hi <= ROW_LONG * die) & (lo <= PIP_WIDE * die) & (hi > ROW_FLAT * lo)
    ok = pip | row
    # of the spots whose box fits only
    least = max(2.0, (SPOT_LEAST * die) ** 2)
    a = np.zeros(len(cs), np.float32)
    for i in np.flatnonzero(ok).tolist():
        a[i] = _pixel_area(cs[i])
    ok &= (a >= least) & (a >= SPOT_FILL * w * h) & (~pip | (a <= (PIP_WIDE * die) ** 2))
    if TURNED_ROWS:
        # a row of pips turned off the axes (a die at 30-60 degrees): its upright box is
        # near square and mostly empty; its own turned box is a row's, and as thick as a pip
        # (ROW_THICK: a pale die's shaded outline makes thinner streaks)
        for i in np.flatnonzero(~ok & (hi <= ROW_LONG * die) & (hi >= TURN_LEAST * die) & (lo >= 2)).tolist():
            rlo, rhi = sorted(cv2.minAreaRect(cs[i])[1])
            ai = _pixel_area(cs[i])
            ok[i] = (rhi <= ROW_LONG * die and ROW_THICK * die <= rlo and rlo + 1 <= PIP_WIDE * die
                     and rhi > ROW_FLAT * (rlo + 1) and ai >= least and ai >= SPOT_FILL * (rlo + 1) * (rhi + 1))
    return st[ok, :2] + (st[ok, 2:] - 1) / 2


def _pixel_area(contour: np.ndarray) -> float:
    """A spot's area in pixels: its outline polygon's area plus half the outline (the pixels it runs through)."""
    return cv2.contourArea(contour) + cv2.arcLength(contour, True) / 2 + 1


def _square_angle(grey: np.ndarray, cx: float, cy: float, rh: int) -> float:
    """The angle (degrees) of the strongest edge direction within rh of (cx, cy)."""
    x0, y0 = max(0, int(cx) - rh), max(0, int(cy) - rh)
    win = grey[y0:int(cy) + rh + 1, x0:int(cx) + rh + 1]
    gx, gy = cv2.Sobel(win, cv2.CV_32F, 1, 0), cv2.Sobel(win, cv2.CV_32F, 0, 1)
    m2, th = gx * gx + gy * gy, np.arctan2(gy, gx)
    # the die's edges and pip rows: the gradient's direction, modulo a quarter turn
    return float(np.degrees(np.arctan2((m2 * np.sin(4 * th)).sum(), (m2 * np.cos(4 * th)).sum()) / 4))


__all__ = ["read_frame", "WORK_DIE_PX"]

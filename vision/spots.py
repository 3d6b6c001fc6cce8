"""Read a die's top face from its pips as spots: small, round, of one colour contrast.

The hole-based reader (vision.face) needs a clean body plane, which small, marbled,
glossy or translucent dice rarely give. Here a pip is whatever stands out from the body
colour around it (a median filter wider than a pip but narrower than the face removes
the pips and keeps the body, whatever its colour): the contrast map is searched for
round blobs (the Hessian's determinant, which answers to spots and not to the die's
outline), and the k strongest blobs that form a 1-6 layout, are of one size and
contrast, and stand clear of the next blob, are the face. When no map reads and a dark
rim on the face's outline may have taken the pips' colour, two last maps look for it inside
the rim. Every size is a fraction of the die's own edge, so nothing depends on the camera
distance.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from dataclasses import dataclass
from collections.abc import Callable

import cv2
import numpy as np

from vision.layout import (MAX_EXTENT, MIN_APART, TWO_EXTENT, centroid, layout_error, layout_tilt,
                           pair_distances, shape_error)

MIN_CONTRAST = 20.0  # Lab units: a weaker spot is texture, not a pip
MIN_CONFIDENCE = 0.25  # below this the face is left to the other reader, or a re-roll
SPOT_LEVEL = 0.85  # a pip's extent: where the contrast is above this part of the weakest pip's
EVEN = 0.45  # the weakest pip of a face has at least this part of the strongest one's contrast
HUE_GAIN = 2.0  # the hue-only map's gain: a colour shift counts as twice as much lightness
HUE_FLOOR = 16.0  # MIN_CONTRAST of the hue-only maps: their texture (marbling, glare) is weaker than in lightness
# (an 8-unit hue shift; on the even half 16 read 4 more dice and no wrong, 14 added 2 wrongs on penlington-wood)
DIP = 1.0  # pips that run together: the contrast between them falls below this part of the weaker (any dip)
HUE_SAG = 0.03  # ... or, on a hue map whose pips differ from the body in hue (GREY_COS), below the straight line between
# the two by this part of the weaker (_shared_spots): a dark smoke die's red pips blur into one bar there, a 3's middle pip
# outshining its corners, so the bar falls from one to the next without a dip (byler-d6 111548's 3 on four grids, 111751's
# 3 and 112342's 6 on one). Four grids: 6 dice more, none wrong (0.1 the same; with BAR_LEVELS_HUE, byler-d6's changed
# pictures: 10 more, 2 lost, none wrong); on every map, not only such hue maps, the cached crops read a 4 as 6, a 6 as 5
SURE_ON_BLOB = 0.5  # the least confidence of a face read on the blob's outline (no body colour region)
PALE = 12.0  # Lab units: a body this near the surface's colour is read on its body colour patch and on the blob
# (even half: 8 read one die less than 12-20; 20 read a label-less crop on penlington-wood's odd half)
BLOB_ROUND = 1.6  # ... where every pip's spot is at most this long over its width (1.4-1.8 alike; 2.2 let a
# blob holding two dice veto a right read; no check let a close-up die's side face in as an extra die)
BLOB_PART = 0.9  # a body colour patch under this part of the blob may have cut off pips: the blob is read as well,
BLOB_LEAST = 4  # ... for a face of 4-6 pips only (a 1-3 is what a side face or a part of a bigger face shows there:
# on the even half, taken from 2 up, 17 more right but 3 wrong, 3s read from 6s; from 4 up none wrong)
BLOB_SURE = 0.7  # ... as surely as this (at 0.5: 10 more right, 4 more wrong over the changed pictures' even half)
BLOB_SEEN = 3  # ... when the face's maps saw this many pips at least (the cut face's share; 2 the same, 4: 3 right
# fewer on the even half; without it the blob is read on 18 % of the crops, with it on 11 %)
GROW = 0.2  # nothing read, the hole reader neither: the body colour patch grown by this part of its side (within
# the blob) is read as the last word: a dark die's patch shrinks from its pale-edged outline (glare, a lighter rim) and
# cuts a 1's or 2's pips off at its edge (0.1-0.3 read the same dice; read on the patch, not as the spare, 0.2 read
# 6s the hole reader read right as 5s and the rim's corners as 4s)
GROW_SURE = 0.6  # ... as surely as this (0.3-0.7 alike on the photos; at 0.5 the changed pictures had 2 more wrong),
GROW_SEEN = 2  # ... and of no fewer pips than the face's maps saw even, strong spots less this (without: the changed
# pictures read 4 dice more and 2 wrong, 1s of a 3 and a 2)
SMOOTH = 0.06  # the spot scale: the contrast map is smoothed over this part of the face side
SHARP = 0.05  # ... and, for a 6 when nothing read, this (0.05 on the even half: +25 right, -5 wrong over the changed pictures)
SHARP_SEEN = 4  # ... when the maps saw at least this many strong, even spots (32 of the 33 sharper 6s saw 5-7)
SURE = 0.7  # a face read this surely from the first map is not looked for in the second
PIP_PART = 0.95  # the pips' colour: the mean of this top part of the face by distance from the body
MEDIAN = 0.4  # the body colour around a pip: a median over this part of the face side
MAX_TILT = 30.0  # degrees a 2 or a 4 may be turned from the face's edges
# (a 3, 5 or 6 is held to its own layout only: its line through the centre, centre pip or two rows
# are no subset of another face, and the edges of an oblique or rounded die's face patch run
# 30-45 degrees off on real 3s, 5s and 6s; a 2 and a 4 are what two or four pips of a bigger
# face, or glare, make, and there the tilt check still turns them away)
TILT_HELD = (2, 4)
PALE_HELD = (2,)  # ... on a pale die's face (PALE), whose outline (and so its edges) wanders where body and surface meet
SIDES_6 = 0.6  # a 4 whose two opposite sides hold this part of its weakest pip's contrast midway is left to the other
# readers (_sides_held): a 6 whose columns ran together. Cached crops, 7 conditions: true 4s at most 0.36 (99 %: byler-d6)
# and 0.45 (penlington-wood) but a 4 shaken along its columns up to 0.79 (four_50); 6s read as 4s 0.69 (median)
CENTRE_PIP = {2: 0.45, 4: 0.13}  # the middle of a 2 / 4 with this part of its weakest pip's contrast holds a pip
# (a true 4's middle is plain body, at most 0.07 on the even half; a 5's weak centre pip from 0.18)
TWIN_6 = MIN_APART  # a peak this near (face sides) a stronger one is the same pip, for a 6 (no two pips lie nearer)
BEYOND_6 = 1.15  # a peak this far past a 6's centre (its corners' distance) is another face's pip
BEYOND_6_SURE = 0.4  # a 6 clear of nothing but such peaks is at most this sure (under vision.face's SURE_SPOTS)
BEYOND_4 = True  # when no face reads (MIN_CONFIDENCE), a 4 passes over such peaks too, as sure (_rest_past_beyond): a
# side face's pip, the die's edge or a rim glint past its corners kept a 4 unread, or another reader read a 6 there
# (byler-d6 100150, penlington-wood four_13). False: for tests. A 2, 3 or 5 so read more wrong than right (a 6's column
# is a 3; a 4 and a peak beside it a 5; tried in every read from 2 up, 37 more wrong reads on byler-d6),
SQUARE_4 = 0.7  # ... a 4 whose pairs of opposite sides are within this ratio (a 6's two rows: 0.5; a side face's 4 seen
# past an oblique die's top face 0.6-0.7, penlington-wood two_29's, whose 2 was lost at 0.6; 0.8 read the same dice)
SKIP_FLAT = 2.2  # when no face reads surely, a face of 3-5 among its k+1 strongest peaks less one spot at least this
# long over its width (_past_a_streak): a highlight's streak on a glossy or translucent die stands among the pips, so the
# k strongest make no face and the next peak, a pip, counts against it (the largest group of byler-d6's unreadable dice),
SKIP_SIZE = 1.0  # ... the streak no bigger than this part of the smallest pip (without: a blurred 6 read 3, a noised 6 5),
SKIP_ROUND = BLOB_ROUND  # ... the pips left at most this long over their width (without: penlington-wood two_6's side
# face, a row of flat pips, read as a 3 and its top face's 2 lost),
SKIP_BELOW = 0.45  # ... and tried when the maps' best read is less sure than this (vision.face's SURE_SPOTS). Taken
# whenever one map did not read (the first try), a sure 3's centre moved and vision.pips' next crop read a 5 beside it as
# a 1 (byler-d6 112926); at 0.25 (no read at all) one jpeg40 die fewer
OUTLINE_DROP = 2  # when no face reads surely, up to this many of the strongest peaks on the face patch's outline
# (_past_the_outline) are passed over: the die's edge, a glint on it or a side face's pip there stands among the k
# strongest peaks, breaks the layout or, as the next peak, makes the face unsure (byler-d6's largest group of
# unreadable dice over none, shift1, shift3 and turn1: 74 of 201 'unclear' faces had their layout among the k+1 or k+2
# strongest peaks, and most of the peaks in the way lay on the outline, beyond the pips)
OUTLINE_EDGE = 1.5  # ... a peak this near (crop pixels) the face patch's edge,
OUTLINE_TOP = 8  # ... among this many strongest,
OUTLINE_BEYOND = 0.12  # ... farther from the face's centre than its farthest pip by this part of the face side at least
OUTLINE_LEAST = 3  # ... for a face of this many pips or more (a 1 or 2 is what is left of anything),
# ... whose pips all lie off the outline (penlington-wood turn1 six_45: every peak of a blurred 6 on its thin patch's
# outline, and two of them passed over left a 4), when the face and the outline's peaks make no bigger face (a 6's
# outer column on the outline, passed over, leaves a 4 that lies within its own corners),
OUTLINE_SURE = 0.44  # ... at most this sure: under vision.face's SURE_SPOTS, so the hole reader may veto it (a face
# read past stronger peaks is weaker evidence: uncapped, MEAN4 0.8665 against 0.8662 but 2 more wrong reads)
OUTLINE_BAND = 0.2  # the last read of a face nothing else read (_past_the_band, vision.face): the two whole-face maps
# faded to nothing towards the face patch's edge over this part of the face side. The die's dark edge, its shadow and a
# glossy rim run along the outline and outshine the pips there (a gold die's black pips beside its dark edge, where the
# face patch is cut inside the die); faded, the pips stand out. 0.25: two 6s fewer on byler-d6 (shift1, shift3); 0.3
# fades a 6's outer columns. Made in the spot reader's own turn it took the place of the sharper map's and the blob's
# reads (byler-d6 none's crops: 112353's and 111530's 6s read 4)
BAND_LEAST = 5  # ... for a face of this many pips or more (a 3 or 4 is what a bigger face less a faded pip leaves: from 3
# up and on any blob, byler-d6 over four grids 9 right and 8 wrong, 6s read 4, 1s and 2s read 3; from 4, turn1 111650's
# and 112353's 6s read 4 and nothing more right),
BAND_SPOTS = (SMOOTH, SHARP, 0.035)  # ... at these spot scales, the finer for pips run together (a dark die's red pips
# on the hue map; 0.035 is the 1-pixel floor of _peaks' smoothing on most byler-d6 dice, 0.025 read the same): SHARP
# read byler-d6 shift1 111446's 5 and 111628's 6, 0.035 none 113004's 5 and shift3 111858's 6; as sure as OUTLINE_SURE
# at most (a read past stronger peaks is weak evidence)
TWIN_LEAST = 3  # for a face of this many pips or more (below 6), a peak on a chosen pip's own spot, TWIN_6 from its
# peak, is that pip again when the other pips are round (_rest_past_twins): a glare streak across one pip splits it in
# two peaks. From 2 up, 3s read as 2s;
TWIN_ROUND = BLOB_ROUND  # ... the other chosen pips at most this long over their width (without: penlington-wood
# two_6's side face, a row of flat pips with a twin, read as a 3)
SMALL_6 = 6.0  # a 6's smallest pip: at least 1/6 of its biggest's area (other faces: 1/4)
SECOND_6 = 2.5  # ... and its second smallest at least 1/2.5 of the biggest
OWN_LEVEL = (5,)  # pips whose areas at one level disagree are measured each at its own contrast for these counts
# (a 5's cross with its centre pip is no part of another face; a 3's line was a 6's column or a 5's diagonal on a
# side face in penlington-wood, and for a 2, 4 or 6 the side faces' spots, small at one level, grow to a pip's size at
# their own: on byler-d6's even half a 4 with two read as 6, a 1 as 2)
OWN_HALF = 0.5  # ... at this part of the pip's own contrast
OWN_LEVEL_HUE = (3, 4, 5)  # ... and for these on a hue map whose pips differ from the body in hue, not paleness (GREY_COS),
OWN_SURE = 0.5  # ... when they stand clear of the next peak by this much at least (its score with a perfect layout, less
# the layout's error): red pips on a dark marbled or smoke body, of uneven contrast under its highlights (byler-d6 112342's
# 4: at one level its weakest pip's spot is 3 px, the strongest's 13). Frame level, 10 conditions: 6 too made 6s of a 4
# and a neighbour's pips (111316) or of two dice in one blob (111457); 2 made 2s of a 1 and a highlight; without
# OWN_SURE or GREY_COS, 11 and 7 new wrong reads
GREY_COS = 0.8  # a hue map's pips differ from the body in paleness when their shift points this near (cosine) the body's
# own way to grey: white pips on a red die, whose highlights are as pale as its pips (100253's 4 read 5)
HUE_AGREE = 0.5  # the last try of a face nothing read surely (under SKIP_BELOW): on a hue map whose pips differ from
# the body in hue (GREY_COS), the peaks whose hue shift (smoothed at the spot scale) points off the strongest peak's by
# more (cosine under this) are no pips: a blue or smoke die's red pip among the rim's and marbling's greyer spots
# (byler-d6 111919, 112353: 1s; without it the 1 stood too little clear of them, a re-roll)
AGREE_SURE = 0.6  # ... the read counts as sure as this at least (0.45: the same dice; 0.25 and HUE_AGREE 0.9: 2 new wrong)
AGREE_REACH = 0.35  # ... a 1 so read may lie this far (face sides) from the face patch's centre (else ONE_REACH: cut by glare)
AGREE_GREY = GREY_COS  # ... when the strongest peak's own shift points off the body's grey axis (cosine under this either
# way): a spot only paler or deeper than the body says nothing by its hue (a green die's saturated glint read a 1 for
# its white 3 on shift1)
AGREE_ROUND = 1.8  # ... and every pip's spot at most this long over its width (a side face's pip is longer, SIDE_FLAT):
# a knot in penlington-wood's table (five_40 noise8, 1.9-2.0) read a 1, byler-d6 112342's 4 (gamma1.5, 2.2) a 5; the
# red 1s 1.0-1.8
ONE_REACH = 0.22  # a 1: its pip at most this far (face sides) from the face patch's centre
ONE_OFF = 0.35  # an oblique 1: its pip at most this far (face sides) from the face patch's centre (else ONE_REACH)
ONE_ROUND = 1.5  # ... the pip at most this long over its width
ONE_LOOK = 4  # ... the next peaks looked at for side faces' pips
SIDE_FLAT = 1.8  # a side face's pip: at least this long over its width,
SIDE_ACROSS = 0.85  # its long axis this near across (sine of the angle) the line from the top pip
SIDE_PIPS = 2  # ... and at least this many of them
ROW_FLAT = 1.5  # a 6's end row that is a side face's pair (_side_row): both spots this long over their width, one
# SIDE_FLAT, the other four pips round (BLOB_ROUND),
ROW_ACROSS = 0.5  # ... the row's spots' long axes at most this cosine off the row (across the columns),
ROW_FAR = 1.04  # ... and the row this much farther from the middle row than the other end row. On the cached crops
# (7 conditions) such 6s were 16 4s and 5s of penlington-wood, 0 6s (the nearest true 6s: 1.0-1.02 far, or along)
RIM = 0.1  # the face's outer band (face sides): a last map takes the pips' colour from inside it only
RIM_RIDGE = 3.0  # ... and passes over spots in the band this long over their width (stretches of the rim)
RIM_TOP = 7  # ... made when one of the first map's 7 strongest spots (a 6 and the next) lies in the band
RIM_LEAST = 3  # ... and reads no fewer pips than this (a 1 or 2 is too easily made of what is left)
BAR_LEVEL = 0.5  # a 6 whose columns ran together (_two_bars): the smoothed map above this part of its top on the face
BAR_LONG = (0.5, 1.1)  # ... makes two bars, each this long (face sides),
BAR_THIN = 0.4  # ... at most this wide (face sides: a blurred pip's width above the lower hue levels, BAR_LEVELS_HUE;
# at 0.3 byler-d6 112353's smoke 6, 0.31-0.37 wide, went unread on three grids and 112710's on shift1; 0.38-0.45 the same,
# no wrong read: BAR_FLAT and BAR_APART still hold the bars to a 6's columns),
BAR_FLAT = 2.2  # ... and at least this long over its width,
BAR_PARALLEL = 15.0  # ... within this many degrees of each other and of the face's edges,
BAR_CENTRE = 0.15  # ... their midpoint this near the face centre (face sides),
BAR_APART = (0.25, 0.75)  # ... this far apart across their axis (face sides),
BAR_ALONE = 0.3  # ... any third spot smaller than this part of the smaller bar (0.5 let a 5 of no labelled die in);
BAR_FINE = 0.02  # ... along each bar, on a map smoothed over this part of the face side, three maxima (and _shared_spots:
# a 6 of two bars of three peaks whose pips show dips on this map, at DIP)
BAR_LOBE = 0.1  # ... standing this part of the bar's top above the lowest points on both sides,
BAR_LOBE_LEAST = 0.3  # ... as strong as this part of the bar's top at least,
BAR_EVEN = 0.6  # ... one pitch apart: the shorter gap at least this part of the longer (a shaken 4's pair is not)
BAR_THREE = 1  # ... on this many of the two bars at least: a 6's middle pips may sink into one bar's ridge
# (byler-d6 112710's dark die, red pips, on the hue map), while a shaken 4's pairs show three maxima on neither
BAR_SURE = 0.4  # the bars' read is as sure as this: under vision.face's SURE_SPOTS, so the hole reader may veto it
BARS = True  # the bars' read is made (False: for tests)
BAR_3 = True  # a 3 whose pips ran into one bar along the face's diagonal on the hue map is read (_one_bar; False: for
# tests): byler-d6's dark smoke dice with dull red pips, blurred at 30-35 px a die, whose three pips make one or two lobes
# on the hue map and no three peaks (112438's, 095854's, 112942's, 111628's). Four grids: 9 dice more, 4 wrong 2s unread,
# none lost. On byler-d6's eight other changes (blur1 ... warm), crop by crop, 55 3s read and 8 faces read 3 that are
# not; in the frames, 3 of them: 095929's 2 on jpeg40, 095854's 5 on noise8, 095421's 2 on warm
BAR_3_SEEN = 4  # ... on a face whose spot maps saw this many even, strong spots at most (a 3 and a glint): a 5's
# diagonal with its other two corners faint reads as such a bar (112342's on shift3; 3 right 3s fewer at 3)
BAR_3_BORDER = 0.3  # ... on a face patch that covers this part of the crop's border at most (more: the crop is not
# one die's, and a die's edge or a neighbour's pip makes the bar; penlington-wood shift3 three_3 read an extra 3; on
# byler-d6's other changes, crop by crop, 4 of the 8 faces read 3 that are not, and 2 of the 55 3s)
BAR_3_LEVELS = (0.5, 0.4, 0.3)  # ... the bar: the smoothed hue map above this part of its top, the first level that
# makes one (BAR_ALONE: nothing else as big; at 0.5 alone 112438's and 095854's on shift1 fall apart into two lobes),
BAR_3_LONG = (0.5, 1.25)  # ... this long (face sides: the face patch is cut inside the die by its dark rim, so a 3's
# diagonal runs past its side; 1.1 lost 112438's on shift1 and shift3),
BAR_3_DIAGONAL = 25.0  # ... within this many degrees of the face's diagonal (a face patch cut by glare turns its edges:
# 20 lost 095854's on none; 30-35 read the same dice),
BAR_3_OFF = 0.35  # ... its middle this near (face sides) the face patch's centre (the patch is cut by the pips and the
# rim: 0.15 lost 112942's and 095854's; 0.45 one more, 112305's 1 lost on blur1)
BARS_ON_HUE = True  # ... on the hue map too, when the first map shows none (False: for tests),
BAR_LEVELS_HUE = (0.4, 0.3, 0.25, 0.2)  # ... its bars above BAR_LEVEL, else above these parts of its top, the highest
# first (one column's hue may be weaker than the other's: red pips under a glossy dark body's highlights). 0.4 alone, cached
# crops, 7 conditions: +7 right, 0 wrong, 0 extra; down to 0.2, byler-d6's blue marbled 6s with red pips (112332's on
# four grids, 111803's on one) and a small white 6 whose square takes in the tray (095906's, turn1): 6 dice more, none
# wrong (0.35 between read the same; 0.15 below, none more on the cached crops)
HUE_MIDDLE = 0.13  # a 2 read on a lightness map whose middle (within this part of the face side) holds the hue map's
# strongest spot (HUE_FLOOR at least) is no 2: two glints around a coloured centre pip on a dark translucent die
# (byler-d6 112419's 1); a true 2's middle is plain body on every map (0.15 took no right 2 on the originals either)
PATCH_EDGE = 0.05  # no peak is taken this near (a part of the patch side) the patch's edge: vision.face cuts a die's crop
# 1.12 die sides wide around it (MARGIN), so its outer 0.054 lies past the die's own edge, and a pip's centre lies far
# inside that; there lie a neighbour's pips, its edge or glare, a replicated border's streak, as strong as a pip, and among
# the k strongest they broke the layout (byler-d6 111710's blue 2 beside a red die, 111628's 6 under its neighbour's glint;
# even and odd halves, none, shift1, shift3 and turn1). Four grids: MEAN4 0.8830 -> 0.8839, wrong 102 -> 101, extra
# 20 -> 19 (10 dice more read, 4 fewer; penlington-wood four_13's 4 lost on none, read on shift3). 0.025 (1 px): 6 read,
# 1 lost, a 1 read 2; 0.075 (3 px): 5 more lost, a 6 read 1
WEAK_2 = (0.45, 0.3)  # a 2 less sure than the first (vision.face's SURE_SPOTS) whose middle holds the second part of its
# weakest pip's contrast (under CENTRE_PIP's 0.45, which makes it a 3) is left unread: a 3's or a 5's centre pip, weaker
# than the corners or run into the marbling, not the plain body of a true 2's middle (byler-d6 095919's dark 5 read 2 on
# four grids, 111628's and 112332's 3s on shift3). Four grids: wrong 101 -> 95, no die lost; 0.2 and 0.6 sure the same
HUE_GLINTS = (3, 6)  # a 1 or a 2 read on a lightness map is glints, not pips, where the hue map of a face whose pips
# differ from the body in hue (GREY_COS) shows this many even, strong spots (HUE_FLOOR, EVEN; up to 6, a face's most:
# more are marbling) (_glints): a dark translucent or glossy die's highlights outshine its red pips in all of Lab, and
# one glint, or two, make a 1 or a 2 there (byler-d6 095849's 4 read 1, 095854's and 095910's 3s read 2). Four grids,
# both sets: wrong 107 -> 102, one die more read (MEAN4 0.8826 -> 0.8830); from 2 spots, 111446's white 1 was lost
HUE_GLINTS_BELOW = 0.6  # ... when the read is less sure than this (the glints' 1s 0.47-0.55, their 2s 0.32; 0.7 the same)
HUE_GLINTS_PART = 0.5  # ... and the hue map's strongest spot is this part of the read's weakest pip at least (a white 1
# on a pink or red marbled body stands far above its hue map's marbling: 112951's, 112305's at 0.39 and 0.17 were lost
# without it; the glints' 0.54-1.15)
HUE_GLINTS_NEAR = 0.5  # ... and the read's centre lies this near (face sides) the hue spots' centre: on the same face
# (a neighbour's 2 at the crop's edge beside a 3's hue pips, 111751's, was lost on four grids without it)
TWO_FLAT = 1.7  # a 2 whose spots are both at least this long over their width is refused (SpotsSeen.refused): pips seen
# obliquely, a side face's 2 or a 1 and its side face's pip, not the top face's 2 (a top face is the most frontal: its
# pips are round). The even half's cached crops, 5 conditions: such 2s were 7 of 1s and 5 of no labelled die on
# penlington-wood, 13 of 1s, 3s, 5s and 6s on byler-d6, and 2 real 2s (1.6: 4 more real 2s; 1.8: 5 fewer wrong)
_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
NOTES = "notes"  # the key in a crop's made maps of what the choosers turned away, for the other reader
SIDE_ROW = "side row"  # ... a 6 made of a 4 and a side face's row (_side_row)


SpotRead = tuple[int, float, tuple[float, float], float]  # value, confidence, face centre, face side


@dataclass(frozen=True)
class SpotsSeen:
    """What the spot reader made of a die crop, for vision.face to weigh against the hole reader."""

    read: SpotRead | None  # the face, or None when unsure
    seen: int  # the most pip-like spots (strong, of even contrast) a contrast map showed on the face
    spare: Callable[[], SpotRead | None] | None = None  # the blob outline's read, else the grown patch's, made on demand
    refused: bool = False  # read only as a 2 of flat spots (TWO_FLAT): no reader should read that 2
    no_six: bool = False  # a 6 of a 4 and a side face's row was turned away (_side_row): no reader should read a 6
    band: Callable[[], SpotRead | None] | None = None  # the read past the outline band (OUTLINE_BAND), made on demand


def read_spots(patch: np.ndarray, mask: np.ndarray) -> SpotRead | None:
    """(value, confidence, face centre, face side) of a die crop, or None when unsure (or refused).

    patch is the die's BGR crop, mask its blob (nonzero on the die and perhaps a little of
    its shadow or the surface around it).
    """
    return read_spots_seen(patch, mask).read


def read_spots_seen(patch: np.ndarray, mask: np.ndarray) -> SpotsSeen:
    """read_spots, how many pip-like spots a contrast map showed on the face, and a spare reader.

    The count (strong spots of even contrast, the most any map showed) is a check on
    another reader when this one gives up: a face with five such spots is no 2.
    The spare, when nothing read and the body colour patch left part of the blob out
    (BLOB_PART): a call for a 4-6 read surely on the blob's outline (made only on demand). A gold, green, red or marbled die's
    patch of body colour is cut by its own shading and dark pips, and the pips beyond the
    cut go missing (a 6 seen as a 4, or nothing); the blob holds them all. It is weaker
    evidence than the face read, so it is the last word: for when the hole reader reads
    nothing too (vision.face). So is, after it, the read on the patch grown a little (GROW): a
    dark die's patch shrinks from its paler outline and cuts a pip by the edge in half.
    A face that read only as a 2 of flat spots (TWO_FLAT) is refused: a die seen obliquely
    whose top face is not that 2, so no reader should read it as one.
    """
    seen = 0
    _SPOTS.clear()
    on_blob = np.count_nonzero(mask)
    side = float(np.sqrt(on_blob))
    if side < 8:
        return SpotsSeen(None, seen)
    inner_mask = cv2.erode(mask, _K3) > 0
    centre = _centroid(mask)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)
    yy, xx = _grid(patch.shape[0], patch.shape[1])
    core = inner_mask & ((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 < (0.3 * side) ** 2)
    if np.count_nonzero(core) < 10:
        return SpotsSeen(None, seen)
    body = _median(lab, core)
    bg = cv2.medianBlur(lab, int(round(MEDIAN * side)) | 1).astype(np.float32)
    face = inner_mask
    least = MIN_CONFIDENCE
    pale = None
    blob_inner = None  # the blob's inside, when the face is the patch of body colour in it (GROW)
    blob = None  # the blob's own face, when the patch of body colour may have cut pips off
    if mask.size - on_blob > 20:
        # the blob may hold some of the surface, or miss part of the die (a blob is cut at
        # a coarser scale and a pale die fades into a pale surface): the face is the patch
        # of pip-free colour nearer the body's than the surface's that holds the core,
        # wherever the blob's outline runs
        surface = _median(lab, mask == 0)
        # nearer the body than the surface: the side of the plane halfway between them
        near = bg @ (surface - body) < 0.5 * float(surface @ surface - body @ body)
        _, parts = cv2.connectedComponents(cv2.erode(near.view(np.uint8), _K3), connectivity=4)
        ids = parts[core]
        ids = ids[ids > 0]
        if len(ids) == 0:
            return SpotsSeen(None, seen)
        near_face = parts == np.bincount(ids).argmax()
        area = int(np.count_nonzero(near_face))
        if area >= 0.3 * side * side:
            if area < BLOB_PART * on_blob:
                blob = (inner_mask, inner_mask, side, centre, max(least, BLOB_SURE))
            gap = surface - body
            if float(np.sqrt(gap.dot(gap))) < PALE:  # np.linalg.norm's own sum, without its checks
                pale = (inner_mask, inner_mask, side, centre, max(least, SURE_ON_BLOB))  # the blob's own
            blob_inner = inner_mask
            face = inner_mask = near_face
            centre = _centroid(face.view(np.uint8))
            side = float(np.sqrt(area))
        else:
            # a pale die on a pale surface: body and surface too alike to tell apart, so
            # the blob's outline is the face, and only a sure read of it counts
            least = max(least, SURE_ON_BLOB)
    diff = np.subtract(lab, bg, dtype=np.float32)  # lab.astype(np.float32) - bg: whole numbers, exact
    made: dict = {}  # the faces' contrast maps, for both spot scales
    read, seen, refused = _read_face(diff, face, inner_mask, side, centre, least, pale, SMOOTH, made, body)
    if read is None and seen >= SHARP_SEEN:
        # a 6's pips lie one pitch apart in their columns, nearer than any other face's: on a
        # softer picture (blur, a small die enlarged, compression) the smoothing runs each
        # column into a bar; a sharper map parts them, and is taken for a 6 only (the bars'
        # ends, its corner pips, are still spots: SHARP_SEEN)
        sharp, seen_sharp, _ = _read_face(diff, face, inner_mask, side, centre, least, pale, SHARP, made, body)
        seen = max(seen, seen_sharp)
        if sharp is not None and sharp[0] == 6:
            read = sharp
    if read is None and not refused and BARS:
        # a 6 whose columns ran together even on the sharper map (a shaken camera): two bars
        read = _two_bars(made, face, side, centre, least)
    if read is None and not refused and BAR_3 and seen <= BAR_3_SEEN:
        # a 3 whose pips ran into one diagonal bar on the hue map (a dark smoke die's red pips)
        read = _one_bar(made, face, side, centre, least)
    band = None
    if read is None and not refused and OUTLINE_BAND:
        def band() -> SpotRead | None:
            return _past_the_band(made, face, inner_mask, side, centre, least, TILT_HELD if pale is None else PALE_HELD)
    if read is None and refused:
        return SpotsSeen(None, seen, refused=True)
    no_six = read is None and SIDE_ROW in made.get(NOTES, ())
    on_outline = read is None and blob is not None and pale is None and seen >= BLOB_SEEN
    grow = read is None and bool(GROW) and blob_inner is not None
    if on_outline or grow:
        def spare() -> SpotRead | None:
            """The blob's outline read first, then the grown patch's (GROW)."""
            if on_outline:
                # round pips only (BLOB_ROUND): a side face seen past the face has flat ones
                other, _, _ = _read_maps(diff, *blob, round_pips=True, spot=SMOOTH, made=made, body=body)
                if other is not None and other[0] >= BLOB_LEAST:
                    return other
            return _grown(diff, face, blob_inner, side, least, body, seen) if grow else None
        return SpotsSeen(None, seen, spare, no_six=no_six, band=band)
    return SpotsSeen(read, seen, no_six=no_six, band=band)


def _centroid(mask: np.ndarray) -> np.ndarray:
    """The (x, y) centre of a uint8 mask's nonzero pixels."""
    m = cv2.moments(mask, binaryImage=True)
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])


def _grown(diff: np.ndarray, face: np.ndarray, blob_inner: np.ndarray, side: float, least: float,
           body: np.ndarray, seen: int) -> SpotRead | None:
    """The face read on the body colour patch grown by GROW of its side within the blob, or None.

    A dark die's patch of body colour is cut where its face turns paler towards the outline
    (glare, a lighter rim): a pip by the edge (a 1 off the middle, a 2's corner pips) lies
    half outside it and its spot is weaker than the rest, or gone. Grown a little, the patch
    holds it; grown too much, it holds the rim's corners, so the read counts only with round
    pips (BLOB_ROUND), as sure as GROW_SURE, and not far fewer than the spots seen (GROW_SEEN).
    """
    r = max(1, int(round(GROW * side)))
    grown = (cv2.dilate(face.view(np.uint8), _disc(r)) > 0) & blob_inner
    area = int(np.count_nonzero(grown))
    if area <= np.count_nonzero(face):
        return None
    read, _, refused = _read_maps(diff, grown, grown, float(np.sqrt(area)), _centroid(grown.view(np.uint8)),
                                  max(least, GROW_SURE), round_pips=True, made={}, body=body)
    if read is None or refused or seen - read[0] > GROW_SEEN:
        return None
    return read


def _read_face(diff: np.ndarray, face: np.ndarray, inner_mask: np.ndarray, side: float, centre: np.ndarray,
               least: float, pale: tuple | None, spot: float, made: dict | None = None,
               body: np.ndarray | None = None) -> tuple[SpotRead | None, int, bool]:
    """_read_maps on the face, and on the blob too when body and surface are alike (pale)."""
    held = TILT_HELD if pale is None else PALE_HELD
    read, seen, refused = _read_maps(diff, face, inner_mask, side, centre, least, spot=spot, made=made, body=body,
                                     held=held)
    if pale is not None:
        # body and surface nearly alike (a white die on a pale table): the patch of body
        # colour is cut by shading and by big dark pips pulling the median down, so the
        # blob's outline has its say too, as sure as SURE_ON_BLOB and with round pips only
        # (BLOB_ROUND: a side face seen past the blob's edge has flat ones); when both
        # read, they must agree
        # (never refused: its round pips are shorter than a flat 2's, BLOB_ROUND < TWO_FLAT)
        other, seen_blob, _ = _read_maps(diff, *pale, round_pips=True, spot=spot, made=made, body=body, held=held)
        seen = max(seen, seen_blob)
        if read is None:
            read = other
        elif other is not None and other[0] != read[0]:
            read = None
    return read, seen, refused


def _read_maps(diff: np.ndarray, face: np.ndarray, inner_mask: np.ndarray, side: float, centre: np.ndarray,
               least: float, round_pips: bool = False, spot: float = SMOOTH,
               made: dict | None = None, body: np.ndarray | None = None,
               held: tuple[int, ...] = TILT_HELD) -> tuple[SpotRead | None, int, bool]:
    """The face read from the contrast maps of the shift from the body colour (diff) on the face.

    round_pips: the read counts only when every pip's spot is round (BLOB_ROUND); spot: the
    spot scale, a part of the face side (SMOOTH, or SHARP); made: the maps already made
    of this diff (by face and side), which only the spot scale changes; body: the body's
    Lab colour (for GREY_COS). The third item: the face read surely as a 2 of flat spots,
    refused (_flat_two).
    """
    seen = 0
    key = (id(face), side)
    maps = made.get(key) if made is not None else None
    if maps is None:
        maps = _FaceMaps(diff, face, side, body)
        if made is not None:
            made[key] = maps
    edge_angle, no_peak = maps.edge_angle, maps.no_peak
    best = None
    # The pips are the face's most off-body colour, whichever way (light on dark, dark on
    # light, red on blue): the contrast is the shift towards the mean of the most off-body
    # pixels. Glare, shading and marbling shift elsewhere, mostly in lightness or in the
    # body's own hue; a second map with the hue shift alone keeps pips of another hue at
    # the body's lightness (red on a dark blue marbled body) from drowning in them.
    # A die's dark rim lies on the face's outline and may be its most off-body colour:
    # then both maps show the rim, its corners are the strongest spots, and the pips are
    # too weak to be chosen (a layout wider than the face), or a rim corner outshines the
    # weakest pip. When neither map reads and one of the first map's strongest spots lies
    # on the face's outer band, a last map takes the colour from inside the band (RIM) and
    # passes over the rim's ridges there; and, that failing, the hue alone from inside the band.
    best_n = 0  # the map that made best (-1: _past_a_streak)
    first_top: list[tuple[float, float, float]] = []
    past: list[tuple[list[tuple[float, float, float]], np.ndarray, np.ndarray, float, bool]] = []  # for _past_a_streak,
    # _past_the_outline (True: a map of the whole face)
    for n in range(4):
        rim = n >= 2
        gain = 1.0 if n % 2 == 0 else HUE_GAIN
        floor = HUE_FLOOR if gain != 1.0 else MIN_CONTRAST
        if best is not None and best[0] >= (least if rim else SURE):
            break  # the hue alone, or inside the rim, could not read it better
        region = face
        if rim:
            if not first_top:
                break
            region, thin = maps.inside()
            if all(region[int(t[1]), int(t[0])] for t in first_top) or thin:
                break  # no strong spot on the band, or a face so thin has no inside
        contrast = maps.contrast(n, region)
        if contrast is None:
            continue
        peaks, smooth = _peaks(contrast, face, side, spot, no_peak) if rim else maps.peaks(n, spot)
        if rim:
            peaks = _off_rim(peaks, contrast, face, region, side)
        elif n == 0:
            first_top = peaks[:RIM_TOP]
        if peaks:
            least_pip = max(floor, EVEN * peaks[0][2])
            seen = max(seen, sum(1 for t in peaks if t[2] >= least_pip))
        hue_pips = maps.off_grey.get(n, False)  # a hue map whose pips differ from the body in hue (GREY_COS)
        cand = _choose(peaks, smooth, inner_mask, side, centre, edge_angle, contrast, face, floor,
                       None if made is None else made.setdefault(NOTES, set()),
                       OWN_LEVEL_HUE if hue_pips else OWN_LEVEL, held, sag=HUE_SAG if hue_pips else None)
        if len(peaks) > 3:
            past.append((peaks, smooth, contrast, floor, not rim))
        if rim and cand is not None and cand[1] < RIM_LEAST:
            cand = None
        if cand is not None and (best is None or cand[0] > best[0]):
            best = (*cand, smooth, contrast)
            best_n = n
    if best is None or best[0] < max(least, SKIP_BELOW):
        # the last try, on every map made: a face the k strongest peaks miss because a
        # highlight's streak stands among them (SKIP_FLAT)
        for peaks, smooth, contrast, floor, _ in past:
            skip = _past_a_streak(peaks, smooth, inner_mask, side, edge_angle, contrast, face, floor, held)
            if skip is not None and (best is None or skip[0] > best[0]):
                best = (*skip, smooth, contrast)
                best_n = -1
    if OUTLINE_DROP and (best is None or best[0] < max(least, SKIP_BELOW)):
        for peaks, smooth, contrast, floor, whole in past:
            if not whole:
                continue  # a rim map passed over the outline's peaks already (_off_rim): a bigger face's too
            cut = _past_the_outline(peaks, smooth, inner_mask, side, centre, edge_angle, contrast, face, floor, held,
                                    maps.edge())
            if cut is not None and (best is None or cut[0] > best[0]):
                best = (*cut, smooth, contrast)
                best_n = -1
    if HUE_AGREE and (best is None or best[0] < max(least, SKIP_BELOW)) and maps.off_grey.get(1, False):
        # the last try: the hue map's peaks whose hue agrees with its strongest's (HUE_AGREE)
        peaks, smooth = maps.peaks(1, spot)
        agree = maps.agreeing(peaks, spot) if len(peaks) > 1 else []  # (a lone peak has no others to pass)
        if agree and len(agree) < len(peaks):
            contrast = maps.contrast(1, face)
            cand = _choose(agree, smooth, inner_mask, side, centre, edge_angle, contrast, face, HUE_FLOOR,
                           None, OWN_LEVEL_HUE, held, sag=HUE_SAG, reach=AGREE_REACH)
            if (cand is not None and cand[0] >= AGREE_SURE and (best is None or cand[0] > best[0])
                    and all(_round(p, contrast, face, side, AGREE_ROUND) for p in cand[2])):
                best = (*cand, smooth, contrast)
                best_n = 1
    if best is None:
        return None, seen, False
    conf, value, pts, smooth, contrast = best
    if value == 2 and best_n % 2 == 0 and _hue_in_middle(maps, pts, spot):
        return None, seen, True  # refused: the hole reader reads the same glints as the same 2
    if value <= 2 and best_n % 2 == 0 and conf < HUE_GLINTS_BELOW and _glints(maps, spot, pts, smooth):
        return None, seen, False  # left to the other readers, which see no glints as pips
    if round_pips and not all(_round(p, contrast, face, side) for p in pts):
        return None, seen, False
    if value == 2 and conf < WEAK_2[0] and _centre_pip(pts, smooth, WEAK_2[1]) and not _centre_pip(pts, smooth, CENTRE_PIP[2]):
        return None, seen, False  # a half sure 2 with something in its middle: a re-roll (WEAK_2)
    if value in (2, 4) and _centre_pip(pts, smooth, CENTRE_PIP[value]):
        value += 1
    elif value == 4 and _sides_held(pts, smooth) >= SIDES_6:
        return None, seen, False
    if conf < least:
        return None, seen, False
    if value == 2 and _flat_two(pts, contrast, face, side):
        return None, seen, True
    c = centroid(pts)
    return (value, float(min(1.0, conf)), (float(c[0]), float(c[1])), side), seen, False


def _hue_in_middle(maps: "_FaceMaps", pts: np.ndarray, spot: float) -> bool:
    """Does the hue map's strongest spot lie in the middle of a 2 read on a lightness map (HUE_MIDDLE)?

    On a dark translucent die with red pips, highlights are the face's most off-body colour,
    so the lightness map's peaks are glints; two of them on a 1's diagonal make a sure 2.
    The hue map shows the red pip itself, where a true 2 has plain body.
    """
    if maps.contrast(1, maps.face) is None:
        return False
    peaks, _ = maps.peaks(1, spot)
    if not peaks or peaks[0][2] < HUE_FLOOR:
        return False
    c = centroid(pts)
    return bool(np.hypot(peaks[0][0] - c[0], peaks[0][1] - c[1]) < HUE_MIDDLE * maps.side)


def _glints(maps: "_FaceMaps", spot: float, pts: np.ndarray, smooth: np.ndarray) -> bool:
    """Is a 1 or a 2 read on a lightness map (pts, on its map smoothed at spot) glints on a face of hue pips (HUE_GLINTS)?

    A dark glossy or translucent die's highlights are its face's most off-body colour, so on
    the lightness map they are the strongest spots, and one or two of them stand clear of the
    red pips beside them: a sure enough 1 or 2. Where the pips differ from the body in hue
    (GREY_COS), the hue map shows them, 3-6 even spots about as strong, on the same face.
    """
    if not HUE_GLINTS or maps.contrast(1, maps.face) is None or not maps.off_grey.get(1, False):
        return False
    peaks, _ = maps.peaks(1, spot)
    if not peaks:
        return False
    at = np.rint(pts).astype(int)
    if peaks[0][2] < HUE_GLINTS_PART * float(smooth[at[:, 1], at[:, 0]].min()):
        return False
    least = max(HUE_FLOOR, EVEN * peaks[0][2])
    strong = np.array([(t[0], t[1]) for t in peaks if t[2] >= least], np.float32)
    if not HUE_GLINTS[0] <= len(strong) <= HUE_GLINTS[1]:
        return False
    return bool(np.hypot(*(centroid(pts) - centroid(strong))) <= HUE_GLINTS_NEAR * maps.side)


def _flat_two(pts: np.ndarray, contrast: np.ndarray, face: np.ndarray, side: float) -> bool:
    """Are both spots of a 2 flat (TWO_FLAT), as pips seen obliquely are?

    A die seen obliquely shows its top face and one or two side faces in one blob. The
    side faces are foreshortened and their pips flat; a 2 made of a side face's 2, or of
    a 1 and its side face's pip seen at a slant, has two flat spots. The top face is the
    most frontal: a true 2 there has round pips. Only a photo smeared by motion makes its
    pips streaks as flat (penlington-wood two_23, two_47: 1.8-2.3); those are refused too.
    """
    for p in pts:
        shape = _spot_shape((float(p[0]), float(p[1]), 0.0), contrast, face, side)
        if shape is None or shape[1] < TWO_FLAT:
            return False
    return True


class _FaceMaps:
    """The contrast maps of one face (its diff, face and side), made once for both spot scales.

    The pips are the face's most off-body colour, whichever way: map n's contrast is the shift
    towards the mean of the most off-body pixels of the face (n 0, 1) or of its inside (the
    face less its RIM band: n 2, 3), in all of Lab (n 0, 2) or in the hue alone (n 1, 3).
    """

    def __init__(self, diff: np.ndarray, face: np.ndarray, side: float, body: np.ndarray | None = None):
        self.face, self.side = face, side
        # the body's own way to grey in a and b (Lab's neutral is 128), a unit vector: the shift of
        # its highlights (None for a body grey already: paleness and hue cannot be told apart)
        self.to_grey = None
        if body is not None:
            to_grey = np.float32(128.0) - body[1:]
            g = float(np.sqrt(to_grey.dot(to_grey)))
            if g > 1e-3:
                self.to_grey = to_grey / g
        self.off_grey: dict[int, bool] = {}  # a hue map's pips differ from the body in hue, not paleness (GREY_COS)
        contours, _ = cv2.findContours(face.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        self.edge_angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))[2] if contours else 0.0
        sq = diff * diff
        hue_far = sq[..., 1] + sq[..., 2]  # squared distances from the body: only their order counts
        full = hue_far + sq[..., 0]
        self.no_peak = _no_peak(face)
        self.sources = ((diff, full, 1.0), (diff[..., 1:], hue_far, HUE_GAIN))
        self._inside: tuple[np.ndarray, bool] | None = None
        self._edge: np.ndarray | None = None
        self._contrast: dict[int, np.ndarray | None] = {}
        self._hue: dict[float, np.ndarray] = {}  # the hue shift smoothed at each spot scale (agreeing)
        self._peaks: dict[tuple[int, float], tuple[list[tuple[float, float, float]], np.ndarray]] = {}

    def peaks(self, n: int, spot: float) -> tuple[list[tuple[float, float, float]], np.ndarray]:
        """_peaks of map n (0 or 1: on the whole face, made with contrast(n, face)) at spot scale, made once.

        The list is shared: callers read it, never change it."""
        key = (n, spot)
        if key not in self._peaks:
            self._peaks[key] = _peaks(self._contrast[n], self.face, self.side, spot, self.no_peak)
        return self._peaks[key]

    def agreeing(self, peaks: list[tuple[float, float, float]], spot: float) -> list[tuple[float, float, float]]:
        """The peaks whose hue shift, smoothed at spot scale, points within HUE_AGREE (cosine) of the strongest's.

        Empty when the strongest's own shift points near the body's grey axis (AGREE_GREY), either way: it is paler
        or deeper than the body, not of another hue, and its hue says nothing of which spots are pips."""
        hue = self._hue.get(spot)
        if hue is None:
            hue = self._hue[spot] = cv2.GaussianBlur(np.ascontiguousarray(self.sources[1][0]), (0, 0),
                                                     max(1.0, spot * self.side))
        v = np.float32([hue[int(t[1]), int(t[0])] for t in peaks])
        n = np.sqrt((v * v).sum(1))
        if self.to_grey is None or abs(float(v[0] @ self.to_grey)) >= AGREE_GREY * float(n[0]):
            return []
        cos = (v @ v[0]) / np.maximum(np.float32(1e-3), n * n[0])
        return [t for t, c in zip(peaks, cos) if c >= HUE_AGREE]

    def smooth(self, n: int, spot: float) -> np.ndarray:
        """Map n (0 or 1) smoothed at spot scale, as _peaks smooths it (made once with its peaks)."""
        key = (n, spot)
        if key in self._peaks:
            return self._peaks[key][1]
        return cv2.GaussianBlur(self._contrast[n], (0, 0), max(1.0, spot * self.side))

    def banded(self, n: int) -> np.ndarray | None:
        """Map n (0 or 1) faded to nothing towards the face patch's edge over OUTLINE_BAND of the face side."""
        contrast = self.contrast(n, self.face)
        if contrast is None:
            return None
        return contrast * np.minimum(np.float32(1.0), self.edge() / np.float32(OUTLINE_BAND * self.side))

    def edge(self) -> np.ndarray:
        """Each face pixel's distance (crop pixels) from the face patch's edge (_past_the_outline), made once."""
        if self._edge is None:
            self._edge = cv2.distanceTransform(self.face.view(np.uint8), cv2.DIST_L2, 3)
        return self._edge

    def inside(self) -> tuple[np.ndarray, bool]:
        """The face less its RIM band, and whether that is too thin to hold anything (under 0.2 of the face)."""
        if self._inside is None:
            face = self.face
            region = cv2.erode(face.astype(np.uint8), _disc(max(1, int(round(RIM * self.side))))) > 0
            self._inside = region, bool(np.count_nonzero(region) < 0.2 * np.count_nonzero(face))
        return self._inside

    def contrast(self, n: int, region: np.ndarray) -> np.ndarray | None:
        """Map n's contrast (float32), or None when the pips' colour is the body's."""
        if n not in self._contrast:
            shift, far, gain = self.sources[n % 2]
            on_face = far[region]
            k = min(len(on_face) - 1, int(PIP_PART * len(on_face)))
            top = region & (far >= np.partition(on_face, k)[k])
            top_shift = shift[top]
            toward = np.add.reduce(top_shift, 0) / len(top_shift)  # .mean(axis=0), without its checks
            norm = float(np.sqrt(toward.dot(toward)))  # np.linalg.norm's own sum, without its checks
            contrast = None
            if norm >= 1e-3:
                toward /= norm
                if gain != 1.0 and self.to_grey is not None:
                    self.off_grey[n] = float(toward @ self.to_grey) < GREY_COS
                contrast = np.maximum(0, shift @ toward)  # float32
                if gain != 1.0:
                    contrast *= gain
            self._contrast[n] = contrast
        return self._contrast[n]


def _round(p: np.ndarray, contrast: np.ndarray, face: np.ndarray, side: float, most: float = BLOB_ROUND) -> bool:
    """Is the spot at p no longer than most (BLOB_ROUND) over its width?"""
    x, y = float(p[0]), float(p[1])
    shape = _spot_shape((x, y, float(contrast[int(y), int(x)])), contrast, face, side)
    return shape is not None and shape[1] <= most


def _off_rim(peaks: list[tuple[float, float, float]], contrast: np.ndarray, face: np.ndarray,
             inside: np.ndarray, side: float) -> list[tuple[float, float, float]]:
    """The peaks less those off the face's inside (in its RIM band) whose spot is a ridge (RIM_RIDGE): stretches of the rim."""
    kept = []
    for t in peaks:
        if not inside[int(t[1]), int(t[0])]:
            shape = _spot_shape(t, contrast, face, side)
            if shape is not None and shape[1] > RIM_RIDGE:
                continue
        kept.append(t)
    return kept


# the spots (_spot_at, _spot_shape) of the read under way, by map and peak; emptied as each read starts (read_spots_seen)
_SPOTS: dict[tuple, tuple] = {}


@functools.lru_cache(maxsize=4)
def _grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's row and column, made once per patch size."""
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    return yy, xx


@functools.lru_cache(maxsize=16)
def _disc(r: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def _median(image: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Each channel's (upper) median of a 3-channel image's pixels where a boolean mask is set: a
    partition, several times cheaper than np.median. (The pixels taken by their flat indices, in
    the same order: a boolean index of a colour image costs twice as much.)"""
    pixels = image.reshape(-1, 3).take(np.flatnonzero(where), axis=0)
    return np.partition(pixels, len(pixels) // 2, axis=0)[len(pixels) // 2].astype(np.float32)


def _centre_pip(pts: np.ndarray, smooth: np.ndarray, part: float) -> bool:
    """Does the middle of a 2 or a 4 hold a pip after all?

    The centre pip of a 3 or a 5 on a small die runs into the corner pips at the spot
    scale (or is weaker than they are), so the layout is read without it; on a true 2 or
    4 the middle is plain body. The contrast there tells them apart.
    """
    c = np.rint(centroid(pts)).astype(int)
    at = np.rint(pts).astype(int)
    return bool(smooth[c[1], c[0]] >= part * smooth[at[:, 1], at[:, 0]].min())


def _sides_held(pts: np.ndarray, smooth: np.ndarray) -> float:
    """The contrast midway along a 4's two opposite sides, over its weakest pip's (the more held pair of sides).

    A 6 whose columns ran together at the spot scale shows only its columns' ends as
    spots, a 4's layout; its middle pips lie halfway along two opposite sides, where a true
    4 has plain body (SIDES_6).
    """
    c = centroid(pts)
    q = pts[np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]
    at = np.rint(pts).astype(int)
    weakest = max(1e-3, float(smooth[at[:, 1], at[:, 0]].min()))
    held = 0.0
    for i in (0, 1):
        mids = np.rint([(q[i] + q[i + 1]) / 2, (q[(i + 2) % 4] + q[(i + 3) % 4]) / 2]).astype(int)
        held = max(held, float(smooth[mids[:, 1], mids[:, 0]].min()) / weakest)
    return held


def _no_peak(face: np.ndarray) -> np.ndarray:
    """Where _peaks takes no peak: off the face, and the patch's outer rows and columns (PATCH_EDGE)."""
    off = ~face
    edge = int(PATCH_EDGE * min(off.shape))  # whole pixels
    if edge > 0:
        off[:edge] = True
        off[-edge:] = True
        off[:, :edge] = True
        off[:, -edge:] = True
    return off


def _peaks(contrast: np.ndarray, face: np.ndarray, side: float, spot: float = SMOOTH,
           no_peak: np.ndarray | None = None) -> tuple[list[tuple[float, float, float]], np.ndarray]:
    """Round bright blobs of the contrast map on the face, strongest first: (x, y, contrast), smoothed at spot x side.

    no_peak: _no_peak(face), when the caller has it (it runs for every map: made once a face).
    """
    smooth = cv2.GaussianBlur(contrast, (0, 0), max(1.0, spot * side))
    dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)
    dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)
    dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)
    det = dxx * dyy
    det -= dxy * dxy
    off = dxx > 0
    off |= _no_peak(face) if no_peak is None else no_peak
    np.copyto(det, 0, where=off)
    r = max(1, int(round(0.09 * side)))
    peak = det >= cv2.dilate(det, _disc(r))
    peak &= det > 0
    at = peak.ravel().nonzero()[0]  # in scan order (np.flatnonzero, without its wrapper)
    if len(at) == 0:
        return [], smooth
    strength = det.ravel()[at]
    at = at[strength > 0.02 * strength.max()]
    v = smooth.ravel()[at]
    order = np.argsort(-v, kind="stable")  # strongest first, ties in scan order (as sorted() on -v)
    ys, xs = np.divmod(at[order], smooth.shape[1])
    return list(zip(xs.astype(np.float32), ys.astype(np.float32), v[order])), smooth


def _choose(peaks: list[tuple[float, float, float]], smooth: np.ndarray, inside: np.ndarray,
            side: float, centre: np.ndarray, edge_angle: float, contrast: np.ndarray,
            face: np.ndarray, floor: float = MIN_CONTRAST, notes: set[str] | None = None,
            own_level: tuple[int, ...] = OWN_LEVEL,
            held: tuple[int, ...] = TILT_HELD, past_beyond: bool = False,
            sag: float | None = None, reach: float = ONE_REACH) -> tuple[float, int, np.ndarray] | None:
    """The best face among the k strongest peaks (none weaker than floor): (score, k, points) or None.

    own_level: the counts whose pips may be measured each at its own level (OWN_LEVEL, or on a
    hue map whose pips differ in hue OWN_LEVEL_HUE, for a face standing clear by OWN_SURE);
    sag: pips run together are apart where they sag below the line between them (HUE_SAG, such a hue map), or None;
    past_beyond: a 4 passes over the peaks beyond its corners (BEYOND_4: the second try, when
    the first read nothing). That try weighs the 4 alone: every other count, and the frontal
    1, would score as in the first, which the 4 must beat anyway.

    A 2 or a 4 must lie square with the face's edges (at edge_angle): two pips of a 4 or a 5
    taken for a 2, or glare spots, mostly do not (TILT_HELD). When no face stands out, the strongest
    peak may still be a 1 on the top face of an obliquely seen die (_frontal_one).
    """
    best = None
    apart = None  # _apart(peaks), made when k reaches 6
    top = np.array([(t[0], t[1]) for t in peaks[:5]], np.float32)  # pts of k < 6 are its first k rows
    dist = None  # their distances apart over the side, made for the first layout judged
    for k in (4,) if past_beyond else range(1, min(6, len(peaks)) + 1):
        if k == 6 and apart is None:
            apart = _apart(peaks, side) if len(peaks) >= 6 else peaks
        src = apart if k == 6 else peaks
        if k > len(src):
            break
        sel = src[:k]
        weakest = sel[-1][2]
        if weakest < EVEN * sel[0][2] or weakest < floor:
            break  # and so for every bigger k: the peaks come strongest first
        if k == 6:
            pts = np.array([(t[0], t[1]) for t in sel], np.float32)
            rest, beyond = _rest_past_6(src, pts, side)
        else:
            pts = top[:k]
            if past_beyond and _squareness(pts, centroid(pts)) < SQUARE_4:
                break  # no square 4 to pass a peak (SQUARE_4; the caller saw a 5th peak): the first try's 4 again
            rest, beyond = (src[k][2] if k < len(src) else 0.0), False
            if TWIN_LEAST <= k < len(src):
                rest = _rest_past_twins(src, k, pts, side, contrast, face)
            plain = rest
            if past_beyond:
                rest, beyond = _rest_past_beyond(src, k, pts, rest)
                if not beyond:
                    break  # passed no peak: the first try's 4 again
        bound = 1.0 - rest / max(1e-3, weakest)  # the score with a perfect layout
        if best is not None and bound <= best[0]:
            continue  # cannot beat the best so far, however well its pips lie
        if k == 1:
            if np.hypot(*(pts[0] - centre)) > reach * side:
                continue
            err = 0.0
        else:
            if k < 6:
                if dist is None:
                    dist = pair_distances(top, side)
                    near = dist.tolist()
                # layout_error's first checks, in Python floats on its float32 values: the
                # layout's extent and its nearest two pips (pairs (i, j), j < i, as d is symmetric)
                pairs = [near[i][j] for i in range(1, k) for j in range(i)]
                extent = max(pairs)
                if extent > _F32[MAX_EXTENT] or min(pairs) < _F32[MIN_APART]:
                    continue
                if k == 2:
                    e = 0.0 if extent >= _F32[TWO_EXTENT] else None
                else:
                    e = shape_error(pts, side, dist[:k, :k], np.float32(extent))
            else:
                e = layout_error(pts, side)
            if e is None:
                continue
            err = e
        if k < 6 and best is not None and bound - err <= best[0]:
            continue  # its score (bound - err below 6) cannot beat the best: its pips need no looking at
        if k in held and layout_tilt(pts, edge_angle) > MAX_TILT:
            continue
        if not _pip_shaped(sel, smooth, inside, side, contrast, own_level if bound - err >= OWN_SURE else OWN_LEVEL, sag):
            continue
        # after every other check: the note vetoes the hole reader's 6 (vision.face), and a
        # candidate refused anyway must not veto a real 6 there
        if k == 6 and _side_row(pts, contrast, face, side):
            if notes is not None:
                notes.add(SIDE_ROW)
            continue
        score = bound - err
        if beyond:
            # a 6 (or a 4: BEYOND_4) that stands clear only of a peak past its corners is half
            # sure: that peak is mostly a side face's pip, but a label's print reads so too, so the
            # hole reader keeps its say (vision.face); never less sure than before the peak was passed
            score = max(1.0 - (src[k][2] if k == 6 else plain) / max(1e-3, weakest) - err, min(score, BEYOND_6_SURE))
        if best is None or score > best[0]:
            if k == 2 and _side_pip_beside(sel, contrast, face, side):
                continue  # a 1 and a side face's pip
            best = (score, k, pts)
    if not past_beyond and (best is None or best[0] < MIN_CONFIDENCE) and peaks and peaks[0][2] >= floor:
        one = _frontal_one(peaks, smooth, inside, side, centre, contrast, face)
        if one is not None and (best is None or one > best[0]):
            best = (one, 1, np.array([(peaks[0][0], peaks[0][1])], np.float32))
    if (not past_beyond and BEYOND_4 and (best is None or best[0] < MIN_CONFIDENCE) and len(peaks) > 4
            and peaks[3][2] >= EVEN * peaks[0][2] and peaks[3][2] >= floor):
        # nothing read: once more, a 4 past the peaks beyond its corners (_rest_past_beyond), when there is
        # a peak past the four strongest to pass and those four are strong and even enough to be a face
        past = _choose(peaks, smooth, inside, side, centre, edge_angle, contrast, face, floor, notes, own_level, held,
                       past_beyond=True, sag=sag)
        if past is not None and (best is None or past[0] > best[0]):
            best = past
    return best


def _side_row(pts: np.ndarray, contrast: np.ndarray, face: np.ndarray, side: float) -> bool:
    """Is one end row of a 6 a side face's pips below a 4 (an obliquely seen die)?

    The 6's two middle pips set its rows; an end row whose spots are flat (ROW_FLAT,
    SIDE_FLAT) with their long axes along the row (ROW_ACROSS), beside four round pips
    (BLOB_ROUND), and farther from the middle row than the other end row (ROW_FAR), is a
    side face's pair seen foreshortened past the top face's edge, below a 4 (or a 5's
    corners). A true 6 whose columns ran together has flat spots along its columns.
    """
    c = centroid(pts)
    r = np.hypot(*(pts - c).T)
    order = np.argsort(r)
    inner, outer = order[:2], order[2:]
    w = pts[inner[0]] - pts[inner[1]]
    u = np.array([-w[1], w[0]]) / max(1e-6, float(np.hypot(*w)))  # along the columns
    along = (pts - c) @ u
    rows = [[i for i in outer if along[i] > 0], [i for i in outer if along[i] <= 0]]
    if any(len(x) != 2 for x in rows):
        return False
    shapes = []
    for p in pts:
        sh = _spot_shape((float(p[0]), float(p[1]), float(contrast[int(p[1]), int(p[0])])), contrast, face, side)
        if sh is None:
            return False
        shapes.append(sh)
    for row, other in ((rows[0], rows[1]), (rows[1], rows[0])):
        flat = sorted(shapes[i][1] for i in row)
        if flat[0] < ROW_FLAT or flat[1] < SIDE_FLAT:
            continue
        if any(shapes[i][1] > BLOB_ROUND for i in other + inner.tolist()):
            continue
        if any(abs(np.cos(shapes[i][2]) * u[0] + np.sin(shapes[i][2]) * u[1]) > ROW_ACROSS for i in row):
            continue
        if abs(float(along[row].mean())) >= ROW_FAR * abs(float(along[other].mean())):
            return True
    return False


def _side_pip_beside(sel: list[tuple[float, float, float]], contrast: np.ndarray, face: np.ndarray,
                     side: float) -> bool:
    """Is one of two spots a round pip and the other a side face's pip beside it?

    The pips of one face are alike; a round pip with a flat spot no bigger, lying across
    the line between them (as _frontal_one tells a side face's pip), is an oblique 1 and
    a pip of its side face, not a 2.
    """
    a = _spot_shape(sel[0], contrast, face, side)
    if a is None:
        return False
    b = _spot_shape(sel[1], contrast, face, side)
    if b is None:
        return False
    for (p, sp), (q, sq) in (((sel[0], a), (sel[1], b)), ((sel[1], b), (sel[0], a))):
        if sp[1] <= ONE_ROUND and _side_pip(p, sp, q, sq):
            return True
    return False


def _side_pip(top: tuple[float, float, float], top_shape: tuple[float, float, float],
              t: tuple[float, float, float], shape: tuple[float, float, float]) -> bool:
    """Is the spot at t a side face's pip beside the pip at top (shapes from _spot_shape)?

    Foreshortened: flat, no bigger than the top pip, its long axis across the line from it.
    """
    across = abs(np.sin(np.arctan2(t[1] - top[1], t[0] - top[0]) - shape[2]))
    return shape[1] >= SIDE_FLAT and across >= SIDE_ACROSS and shape[0] <= top_shape[0]


def _frontal_one(peaks: list[tuple[float, float, float]], smooth: np.ndarray, inside: np.ndarray, side: float,
                 centre: np.ndarray, contrast: np.ndarray, face: np.ndarray) -> float | None:
    """The score of the strongest peak as a 1 seen obliquely beside side faces' pips, or None.

    An oblique die's top face is its most frontal: its pip is round, and it lies off the
    blob's centre (the side faces take the rest of the blob). The side faces' pips are
    foreshortened: flat spots, no bigger than the top pip, whose long axis runs across the
    line from the top pip (along the edge they sit next to). At least two such spots
    among the next few peaks, and the 1 stands clear of every other peak.
    """
    top = peaks[0]
    if np.hypot(top[0] - centre[0], top[1] - centre[1]) > ONE_OFF * side:
        return None
    # (each check below only turns the 1 away: the side pips, mostly missing, are looked at before its spot's shape)
    s0 = _spot_shape(top, contrast, face, side)
    if s0 is None or s0[1] > ONE_ROUND:
        return None
    flat = 0
    rest = peaks[1 + ONE_LOOK][2] if len(peaks) > 1 + ONE_LOOK else 0.0
    for t in peaks[1:1 + ONE_LOOK]:
        s = _spot_shape(t, contrast, face, side)
        if s is not None and _side_pip(top, s0, t, s):
            flat += 1
            continue
        rest = t[2]
        break
    if flat < SIDE_PIPS or not _pip_shaped(peaks[:1], smooth, inside, side):
        return None
    return 1.0 - rest / top[2]


def _spot_at(x: int, y: int, contrast: np.ndarray, face: np.ndarray,
             side: float) -> tuple[np.ndarray, int, int] | None:
    """The spot at (x, y), at half its contrast there: a window around it marked 2 on the spot
    (4-connected, on the face), and the window's origin; None when (x, y) is off the face.

    Looked for within 0.3 of the side around the point: a pip is smaller (0.4 at most).
    Made once per read (_SPOTS): the choosers ask for the same peaks' spots again and again.
    """
    key = (id(contrast), id(face), side, x, y)
    got = _SPOTS.get(key)
    if got is None:
        got = _SPOTS[key] = (_spot_window(x, y, contrast, face, side), contrast, face)  # the maps kept: their ids stay theirs
    return got[0]


def _spot_window(x: int, y: int, contrast: np.ndarray, face: np.ndarray,
                 side: float) -> tuple[np.ndarray, int, int] | None:
    """_spot_at, made."""
    r = max(3, int(round(0.3 * side)))
    x0, y0 = max(0, x - r), max(0, y - r)
    win = (slice(y0, y + r + 1), slice(x0, x + r + 1))
    m = ((contrast[win] > 0.5 * contrast[y, x]) & face[win]).astype(np.uint8)
    if not m[y - y0, x - x0]:
        return None
    cv2.floodFill(m, None, (x - x0, y - y0), 2, flags=4)
    return m, x0, y0


def _spot_shape(t: tuple[float, float, float], contrast: np.ndarray, face: np.ndarray,
                side: float) -> tuple[float, float, float] | None:
    """(area, length over width, long axis angle in radians) of the spot at a peak (_spot_at)."""
    x, y = int(t[0]), int(t[1])
    key = ("shape", id(contrast), id(face), side, x, y)
    got = _SPOTS.get(key)
    if got is None:
        got = _SPOTS[key] = (_shape_of(_spot_at(x, y, contrast, face, side)), contrast, face)
    return got[0]


def _shape_of(spot: tuple[np.ndarray, int, int] | None) -> tuple[float, float, float] | None:
    """_spot_shape of a spot from _spot_at."""
    if spot is None:
        return None
    mom = cv2.moments((spot[0] == 2).view(np.uint8), binaryImage=True)
    sxx = mom["mu20"] / mom["m00"] + 1 / 12
    syy = mom["mu02"] / mom["m00"] + 1 / 12
    sxy = mom["mu11"] / mom["m00"]
    half, det = (sxx + syy) / 2, sxx * syy - sxy * sxy
    d = float(np.sqrt(max(0.0, half * half - det)))
    return float(mom["m00"]), float(np.sqrt((half + d) / max(1e-6, half - d))), float(0.5 * np.arctan2(2 * sxy, sxx - syy))


def _apart(peaks: list[tuple[float, float, float]], side: float) -> list[tuple[float, float, float]]:
    """The peaks less each one nearer to a stronger one than two pips of a face ever lie (TWIN_6).

    A pip may give two peaks (an elongated or glossy pip, a pip and its rim of shade); among
    the six strongest such a twin keeps the 6's weakest pip out of the count. Used for a 6
    only: for fewer pips the twin's contrast still counts against the face, as ever.
    """
    kept: list[tuple[float, float, float]] = []
    at: list[tuple[int, int]] = []
    # the peaks lie on whole pixels: their squared distances are whole numbers, as exact in
    # float32 as in Python, and held to the bound as float32 holds it
    near = _f32((TWIN_6 * side) ** 2)
    for i, t in enumerate(peaks):
        if len(kept) == 7:
            return kept + peaks[i:]
        x, y = int(t[0]), int(t[1])
        if all((x - u) ** 2 + (y - v) ** 2 >= near for u, v in at):
            kept.append(t)
            at.append((x, y))
    return kept


def _f32(x: float) -> float:
    """x as numpy compares it with a float32 value (rounded to float32)."""
    return float(np.float32(x))


_F32 = {x: _f32(x) for x in (MAX_EXTENT, MIN_APART, TWO_EXTENT)}  # layout_error's first bounds


def _rest_past_twins(peaks: list[tuple[float, float, float]], k: int, pts: np.ndarray, side: float,
                     contrast: np.ndarray, face: np.ndarray) -> float:
    """The contrast of the strongest peak after the k chosen that is no second peak of a chosen pip.

    A glare streak or a glossy highlight across one pip splits its spot into two peaks; the
    second then stands as the next peak, as strong as the pip, and the face reads as unsure
    as if a pip of a bigger face were there (byler-d6 100026's black 4, 111904's 3). Such a
    twin lies on the chosen pip's own spot (at half its contrast) and nearer than two pips
    of a face ever lie (TWIN_6). Only when the other chosen pips are round (TWIN_ROUND): a
    side face's row of flat pips shows twins too (penlington-wood two_6).
    """
    twin_of = set()
    rest = 0.0
    for t in peaks[k:]:
        d = np.hypot(pts[:, 0] - t[0], pts[:, 1] - t[1])
        j = int(np.argmin(d))
        if float(d[j]) < TWIN_6 * side and _same_spot(pts[j], t, contrast, face, side):
            twin_of.add(j)
            continue
        rest = t[2]
        break
    if not twin_of:
        return peaks[k][2]
    for j in range(k):
        if j not in twin_of:
            shape = _spot_shape((float(pts[j][0]), float(pts[j][1]), 0.0), contrast, face, side)
            if shape is None or shape[1] > TWIN_ROUND:
                return peaks[k][2]
    return rest


def _same_spot(p: np.ndarray, t: tuple[float, float, float], contrast: np.ndarray, face: np.ndarray,
               side: float) -> bool:
    """Does the peak t lie on the spot of the pip at p (_spot_at)?"""
    spot = _spot_at(int(p[0]), int(p[1]), contrast, face, side)
    if spot is None:
        return False
    m, x0, y0 = spot
    tx, ty = int(t[0]) - x0, int(t[1]) - y0
    return 0 <= ty < m.shape[0] and 0 <= tx < m.shape[1] and bool(m[ty, tx] == 2)


def _rest_past_beyond(peaks: list[tuple[float, float, float]], k: int, pts: np.ndarray,
                      rest: float) -> tuple[float, bool]:
    """The next peak's contrast for a square 4 (SQUARE_4), past the peaks beyond its corners, and whether one was passed.

    A bigger face that holds a 4's pips (a 5, a 6) has the same corners: its other pips lie
    on the 4's grid, within its corners. A peak BEYOND_6 past them is no pip of its face but
    a side face's pip, the die's edge or a glint on its rim. Not so for a 4 of a 6's two rows
    (a rectangle: its third row lies past it), so the 4 must be square: _choose asks only
    for a square one. rest: the next peak's contrast as counted without passing
    (_rest_past_twins).
    """
    c = centroid(pts)
    reach = BEYOND_6 * float(np.hypot(*(pts - c).T).max())
    for t in peaks[k:]:
        if float(np.hypot(t[0] - c[0], t[1] - c[1])) <= reach:
            return (t[2], True) if t[2] < rest else (rest, False)
    return 0.0, True


_NEXT_4 = np.array([1, 2, 3, 0])  # a 4's next corner round it


def _squareness(pts: np.ndarray, c: np.ndarray) -> float:
    """A 4's shorter pair of opposite sides over its longer (1: a square; a 6's two rows: 0.5)."""
    q = pts[np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]
    sides = np.hypot(*(q - q[_NEXT_4]).T)  # each corner to the next (np.roll(q, -1, axis=0), without its checks)
    a, b = float(sides[0] + sides[2]), float(sides[1] + sides[3])
    return min(a, b) / max(a, b, 1e-6)


def _rest_past_6(peaks: list[tuple[float, float, float]], pts: np.ndarray, side: float) -> tuple[float, bool]:
    """The contrast of the strongest peak after the 6 chosen that could be a pip of their face.

    For fewer pips that is simply the next peak (any peak could be a pip the layout
    missed). A six has no seventh pip, so a peak on a chosen pip (nearer than two pips of
    a face ever lie) is that pip again, and a peak beyond the 6's corners is another
    face's. The flag: such a peak was passed.
    """
    c = centroid(pts)
    corner = float(np.hypot(*(pts - c).T).max())
    beyond = False
    for t in peaks[6:]:
        if float(np.min(np.hypot(pts[:, 0] - t[0], pts[:, 1] - t[1]))) < TWIN_6 * side:
            continue
        if float(np.hypot(t[0] - c[0], t[1] - c[1])) > BEYOND_6 * corner:
            beyond = True
            continue
        return t[2], beyond
    return 0.0, beyond


def _pip_shaped(sel: list[tuple[float, float, float]], smooth: np.ndarray, inside: np.ndarray, side: float,
                contrast: np.ndarray | None = None, own_level: tuple[int, ...] = OWN_LEVEL,
                sag: float | None = None) -> bool:
    """Each chosen peak is a spot of its own, round and of a pip's size, all of one size.

    contrast: the map smooth was smoothed from, for a 6 whose columns ran into two bars (_shared_spots);
    own_level: the counts whose spots may agree in size each at its own level, when not at one;
    sag: _shared_spots' sag (HUE_SAG on a hue map of pips of another hue), or None.
    """
    level = SPOT_LEVEL * sel[-1][2]
    m = ((smooth > level) & inside).astype(np.uint8)
    # each peak's spot (4-connected) by floodFill: its area and box as connectedComponentsWithStats
    # gives them; a peak on a spot already filled (2) shares it with a stronger one
    a, w, h = [], [], []
    shared = False
    for t in sel:
        x, y = int(t[0]), int(t[1])
        on = m[y, x]
        if on == 0:
            return False
        if shared or on == 2:
            shared = True
            continue
        n, _, _, box = cv2.floodFill(m, None, (x, y), 2, flags=4)
        a.append(n)
        w.append(box[2])
        h.append(box[3])
    if shared:
        m = ((smooth > level) & inside).astype(np.uint8)
        _, lab = cv2.connectedComponents(m, connectivity=4)
        ids = [lab[int(t[1]), int(t[0])] for t in sel]
        fine = None
        if contrast is not None and len(sel) == 6 and sorted(Counter(ids).values()) == [3, 3]:
            # a 6 whose columns ran into two bars at the spot scale: its pips' dips may
            # still show on a finer map (a 4 or a 5 taken for a 6 makes no two bars of three)
            fine = _fine(contrast, side)
        sizes = _shared_spots(sel, ids, smooth, lab, m, fine, sag)
        if sizes is None:
            return False
        a, w, h = (x.tolist() for x in sizes)
    # areas, widths and heights are whole pixel counts (exact in float32 too): each ratio
    # below is off its bound by far more than a float32 rounding unless it is on it
    long = [max(x, y) for x, y in zip(w, h)]
    if max(a) > _f32(0.09 * side * side) or max(long) > _f32(0.4 * side):
        return False
    if any(2 * n > 5 * max(1, min(x, y)) for n, x, y in zip(long, w, h)):  # longer than 2.5x the width
        return False
    if any(5 * n < 2 * max(1, x * y) for n, x, y in zip(a, w, h)):  # filling under 0.4 of the box
        return False
    if _sizes_agree(a):
        return True
    # a 5's centre pip may stand out from the corner ones in contrast (glare, shade, a soft
    # or compressed picture): at one level for all, the stronger pips' spots are wider than
    # the weaker's though the pips are one size; each at half its own contrast, they agree
    return len(sel) in own_level and _sizes_agree(_own_areas(sel, smooth, inside, side).tolist())


def _own_areas(sel: list[tuple[float, float, float]], smooth: np.ndarray, inside: np.ndarray,
               side: float) -> np.ndarray:
    """Each chosen peak's spot area at OWN_HALF of its own contrast, of the pixels nearer it than the other peaks."""
    pk = np.array([(t[0], t[1]) for t in sel], np.float32)
    r = max(3, int(round(0.3 * side)))
    h, w = smooth.shape
    out = np.zeros(len(sel), np.float32)
    for i, t in enumerate(sel):
        x, y = int(t[0]), int(t[1])
        x0, y0 = max(0, x - r), max(0, y - r)
        x1, y1 = min(w, x + r + 1), min(h, y + r + 1)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        mine = ((xx[..., None] - pk[:, 0]) ** 2 + (yy[..., None] - pk[:, 1]) ** 2).argmin(axis=-1) == i
        m = (smooth[y0:y1, x0:x1] > OWN_HALF * t[2]) & inside[y0:y1, x0:x1] & mine
        _, lab = cv2.connectedComponents(m.astype(np.uint8), connectivity=4)
        label = lab[y - y0, x - x0]
        out[i] = np.count_nonzero(lab == label) if label else 0.0
    return out


def _sizes_agree(a: list[float]) -> bool:
    """Are pips of these areas (whole pixel counts) of one face? Within 4x of each other, or a 6 with one small pip."""
    hi, lo = max(a), min(a)
    if len(a) == 6 and hi > 4 * lo:
        # a 6's weakest pip (in shade, or at the face's far edge) may be smaller still, but
        # only the one: a 4 with two small pips of a side face beside it is no 6
        return hi <= SMALL_6 * lo and hi <= SECOND_6 * sorted(a)[1]
    return len(a) < 2 or hi <= 4 * lo


def _shared_spots(sel: list[tuple[float, float, float]], ids: list[int], smooth: np.ndarray, lab: np.ndarray,
                  m: np.ndarray, fine: np.ndarray | None = None,
                  sag: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(area, width, height) of pips that run together at the spot level, or None.

    A 6's columns on a small die merge into bars: each pip is still a spot of its own when
    the contrast dips between it and its neighbour, and its part of the bar is the pixels
    nearer to it than to the other pips. No dip: one long spot (a stripe), not pips.
    fine: a finer map of the contrast, when the pips are a 6's two bars of three: a dip
    there counts too (the spot scale's smoothing may fill the dips of a 6 on a small die).
    sag: on a hue map of pips of another hue (HUE_SAG), a sag this part of the weaker below
    the straight line between the two counts as a dip: two blurred pips of unlike contrast
    (a 3's middle pip, lit by both corners' blur) make a bar that falls from one to the
    other, bowed between them, where a stripe of even colour runs straight or bulges.
    """
    pk = np.array([(t[0], t[1]) for t in sel], np.float32)
    v = np.array([t[2] for t in sel], np.float32)
    along = np.linspace(0.2, 0.8, 7)[:, None]
    for i in range(len(sel)):
        for j in range(i + 1, len(sel)):
            if ids[i] == ids[j]:
                line = np.rint(pk[i] + along * (pk[j] - pk[i])).astype(int)
                profile = smooth[line[:, 1], line[:, 0]]
                if profile.min() > DIP * min(v[i], v[j]):
                    chord = v[i] + along[:, 0] * (v[j] - v[i])  # the straight line between them
                    if sag is not None and float((profile - chord).min()) <= -sag * min(v[i], v[j]):
                        continue  # bowed below it (HUE_SAG): two pips
                    if fine is None:
                        return None
                    ends = min(float(fine[int(pk[i][1]), int(pk[i][0])]), float(fine[int(pk[j][1]), int(pk[j][0])]))
                    if fine[line[:, 1], line[:, 0]].min() > DIP * ends:
                        return None
    ys, xs = np.nonzero(m)
    d2 = (xs[:, None] - pk[None, :, 0]) ** 2 + (ys[:, None] - pk[None, :, 1]) ** 2
    d2[lab[ys, xs][:, None] != np.array(ids)[None, :]] = np.inf
    nearest = d2.argmin(axis=1)
    mine = np.isfinite(d2.min(axis=1))
    a, w, h = (np.zeros(len(sel), np.float32) for _ in range(3))
    for i in range(len(sel)):
        px, py = xs[mine & (nearest == i)], ys[mine & (nearest == i)]
        if len(px) == 0:
            return None
        a[i], w[i], h[i] = len(px), px.max() - px.min() + 1, py.max() - py.min() + 1
    return a, w, h


def _two_bars(made: dict, face: np.ndarray, side: float, centre: np.ndarray, least: float) -> SpotRead | None:
    """A 6 whose two columns ran together, each into a bar (blur, compression, a small die), or None.

    No other face makes two parallel bars of three pips' length: a 4's columns are two
    pips one pitch and a gap apart, a 5's hold a centre pip between them. A motion-blurred
    4's pairs run into bars as long as a 6's, so a bar must also show three maxima one
    pip pitch apart on a finer map (BAR_EVEN): BAR_THREE of the two, as a 6's middle pip
    may sink into its bar's ridge on one column (the hue of a dark die's red pips).
    """
    maps = made.get((id(face), side))
    if maps is None or not face.any():
        return None
    tries = ((0, MIN_CONTRAST, BAR_LEVEL), (1, HUE_FLOOR, BAR_LEVEL)) + tuple((1, HUE_FLOOR, x) for x in BAR_LEVELS_HUE)
    for n, floor, level in tries if BARS_ON_HUE else tries[:1]:
        # the bars on the first map, else on the hue alone (red pips on a dark glossy body,
        # whose highlights outshine the pips in all of Lab), there at lower levels too
        contrast = maps.contrast(n, face)
        if contrast is not None:
            read = _bars_on(contrast, maps.edge_angle, face, side, centre, least, floor, level, maps.smooth(n, SMOOTH))
            if read is not None:
                return read
    return None


def _one_bar(made: dict, face: np.ndarray, side: float, centre: np.ndarray, least: float) -> SpotRead | None:
    """A 3 whose pips ran into one bar along the face's diagonal on the hue map, or None.

    A dark translucent die's dull red pips blur into each other: the three of a 3 make one
    bar on the hue map, or two lobes, and never three peaks. Few other faces make one bar
    alone along the diagonal (a 2's pips lie a pitch and a gap apart, though blur, noise or
    compression may join them; a 5's and a 6's other pips make other spots, BAR_ALONE,
    BAR_3_SEEN; a 6's columns lie along the edges). As sure as
    BAR_SURE: the hole reader may veto it (vision.face's SURE_SPOTS)."""
    maps = made.get((id(face), side))
    if maps is None or not face.any():
        return None
    contrast = maps.contrast(1, face)
    if contrast is None or not maps.off_grey.get(1, False):
        return None
    rim = np.concatenate([face[0], face[-1], face[:, 0], face[:, -1]])
    if np.count_nonzero(rim) > BAR_3_BORDER * len(rim):
        return None  # the face patch runs off the crop: no one die's face (a die's piece, two dice, the tray)
    smooth = maps.smooth(1, SMOOTH)
    top = float(smooth[face].max())
    if top < HUE_FLOOR:
        return None
    for level in BAR_3_LEVELS:
        c = _bar_at(smooth, face, side, maps.edge_angle, centre, top, level)
        if c is not None:
            return (3, float(max(least, BAR_SURE)), (float(c[0]), float(c[1])), side)
    return None


def _bar_at(smooth: np.ndarray, face: np.ndarray, side: float, edge_angle: float, centre: np.ndarray, top: float,
            level: float) -> np.ndarray | None:
    """The middle of _one_bar's bar on the smoothed hue map above level of its top, or None."""
    alone = _alone(smooth, face, level * top, 1)
    if alone is None:
        return None
    labels, (i,) = alone
    bar = _bar(labels, i, side, BAR_3_LONG)
    if bar is None:
        return None
    c, _, _, evec = bar
    u = evec[:, 1]
    tilt = np.degrees(np.arctan2(u[1], u[0])) - edge_angle
    if abs(abs((tilt + 45.0) % 90.0 - 45.0) - 45.0) > BAR_3_DIAGONAL:
        return None
    if np.hypot(*(c - centre)) > BAR_3_OFF * side:
        return None
    return c


def _alone(smooth: np.ndarray, face: np.ndarray, above: float, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The face's k largest regions where the map lies above a level (the labels, and their
    indices largest first), when nothing else there is as big (BAR_ALONE of the smallest of
    them): a 6's two bars or a 3's one, not a face of more spots; else None."""
    on = ((smooth > above) & face).view(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(on, connectivity=8)
    if n < k + 1:
        return None
    order = np.argsort(-stats[1:, cv2.CC_STAT_AREA], kind="stable") + 1
    if n > k + 1 and stats[order[k], cv2.CC_STAT_AREA] > BAR_ALONE * stats[order[k - 1], cv2.CC_STAT_AREA]:
        return None
    return labels, order[:k]


def _bar(labels: np.ndarray, i: int, side: float,
         long: tuple[float, float]) -> tuple[np.ndarray, float, float, np.ndarray] | None:
    """A labelled region's centre, length, width and axes (columns: across, along) when it is a bar:
    long (in face sides) between the bounds given, thin (BAR_THIN) and flat (BAR_FLAT); else None.
    Length and width are four standard deviations along and across: a blurred bar's ends fade, so
    its pixels' spread measures it steadier than its box."""
    ys, xs = np.nonzero(labels == i)
    if len(xs) < 3:
        return None
    c = np.array([xs.mean(), ys.mean()])
    ev, evec = np.linalg.eigh(np.cov(np.stack([xs, ys]).astype(np.float64)))
    length, width = 4 * np.sqrt(max(ev[1], 0.0)), 4 * np.sqrt(max(ev[0], 0.0))
    if not (long[0] * side <= length <= long[1] * side and width <= BAR_THIN * side and length >= BAR_FLAT * width):
        return None
    return c, length, width, evec


def _bars_on(contrast: np.ndarray, edge_angle: float, face: np.ndarray, side: float, centre: np.ndarray,
             least: float, floor: float, level: float, smooth: np.ndarray | None = None) -> SpotRead | None:
    """_two_bars on one contrast map whose pips are no weaker than floor, its bars above level of its top.

    smooth: the map smoothed at SMOOTH, when made already."""
    if smooth is None:
        smooth = cv2.GaussianBlur(contrast, (0, 0), max(1.0, SMOOTH * side))
    top = float(smooth[face].max())
    if top < floor:
        return None
    alone = _alone(smooth, face, level * top, 2)
    if alone is None:
        return None
    labels, order = alone
    fine = _fine(contrast, side)
    bars = []
    three = 0  # bars showing three even maxima
    for i in order:
        bar = _bar(labels, i, side, BAR_LONG)
        if bar is None:
            return None
        c, length, width, evec = bar
        u, v = evec[:, 1], evec[:, 0]
        three += _three_even(fine, c, u, v, length, width)
        bars.append((c, u, length))
    if three < BAR_THREE:
        return None
    (c1, u1, _), (c2, u2, _) = bars
    if abs(float(u1 @ u2)) < np.cos(np.radians(BAR_PARALLEL)):
        return None
    u = u1 if u1 @ u2 > 0 else -u1
    u = (u + (u2 if u1 @ u2 > 0 else -u2))
    u /= np.linalg.norm(u)
    tilt = np.degrees(np.arctan2(u[1], u[0])) - edge_angle
    if abs((tilt + 45.0) % 90.0 - 45.0) > BAR_PARALLEL:
        return None
    if np.hypot(*((c1 + c2) / 2 - centre)) > BAR_CENTRE * side:
        return None
    apart = abs(float((c1 - c2) @ np.array([-u[1], u[0]])))
    if not (BAR_APART[0] * side <= apart <= BAR_APART[1] * side):
        return None
    mid = (c1 + c2) / 2
    return (6, float(max(least, BAR_SURE)), (float(mid[0]), float(mid[1])), side)


def _past_the_band(made: dict, face: np.ndarray, inner_mask: np.ndarray, side: float, centre: np.ndarray, least: float,
                   held: tuple[int, ...]) -> SpotRead | None:
    """A face of BAND_LEAST pips or more on the whole-face maps faded towards the outline (OUTLINE_BAND), or None.

    The face patch's outline is where the die's dark edge, its shadow and a glossy rim lie;
    on a die whose edge is darker than its body (a gold die with black pips) or whose rim
    shines (a dark glossy die) they are the face's strongest peaks, so the k strongest make
    no layout and the pips beside them go unread. Fading the maps over the outer band, by
    the face side, leaves the pips. A band fades a pip next to the outline too, so what is
    left of a bigger face may be a smaller one: only 5s and 6s are read, as the last word
    (vision.face: after the hole reader and the blob's read) and half sure (OUTLINE_SURE).
    """
    maps = made.get((id(face), side))
    if maps is None:
        return None
    best = None
    for n in (0, 1):
        banded = maps.banded(n)
        if banded is None:
            continue
        floor = HUE_FLOOR if n else MIN_CONTRAST
        for spot in BAND_SPOTS:
            peaks, smooth = _peaks(banded, face, side, spot, maps.no_peak)
            cand = _choose(peaks, smooth, inner_mask, side, centre, maps.edge_angle, banded, face, floor, None, OWN_LEVEL,
                           held)
            if cand is None or cand[1] < BAND_LEAST or cand[0] < least or (best is not None and cand[0] <= best[0]):
                continue
            best = cand
    if best is None:
        return None
    score, value, pts = best
    c = centroid(pts)
    return (value, float(min(score, OUTLINE_SURE)), (float(c[0]), float(c[1])), side)


def _fine(contrast: np.ndarray, side: float) -> np.ndarray:
    """The contrast map smoothed over BAR_FINE of the face side: a 6's pips run into bars show their dips there."""
    return cv2.GaussianBlur(contrast, (0, 0), max(0.7, BAR_FINE * side))


def _three_even(fine: np.ndarray, c: np.ndarray, u: np.ndarray, v: np.ndarray, length: float, width: float) -> bool:
    """Does the bar at c (axis u, across v) hold three maxima one pitch apart along its axis?"""
    ts = np.arange(-0.6 * length, 0.6 * length + 1.0, 1.0)
    ws = np.arange(-0.5 * width, 0.5 * width + 1.0, 1.0)
    x = np.clip(np.rint(c[0] + ts[:, None] * u[0] + ws[None, :] * v[0]).astype(int), 0, fine.shape[1] - 1)
    y = np.clip(np.rint(c[1] + ts[:, None] * u[1] + ws[None, :] * v[1]).astype(int), 0, fine.shape[0] - 1)
    pr = fine[y, x].mean(axis=1)
    top = float(pr.max())
    at = [k for k in range(1, len(pr) - 1)
          if pr[k] >= pr[k - 1] and pr[k] > pr[k + 1] and pr[k] >= BAR_LOBE_LEAST * top
          and pr[k] - max(pr[:k].min(), pr[k + 1:].min()) >= BAR_LOBE * top]
    if len(at) != 3:
        return False
    g1, g2 = at[1] - at[0], at[2] - at[1]
    return min(g1, g2) >= BAR_EVEN * max(g1, g2)


def _past_a_streak(peaks: list[tuple[float, float, float]], smooth: np.ndarray, inside: np.ndarray, side: float,
                   edge_angle: float, contrast: np.ndarray, face: np.ndarray,
                   floor: float, held: tuple[int, ...] = TILT_HELD) -> tuple[float, int, np.ndarray] | None:
    """The best face of k (3-5) among the k+1 strongest peaks less one flat spot: (score, k, points) or None.

    A glossy or translucent die's highlight is a streak across the face, as strong as its
    pips; among the k strongest peaks it keeps the face's layout from forming, and the
    weakest pip, now the next peak, makes the face unsure. The streak is flat (SKIP_FLAT)
    and no bigger than the pips (SKIP_SIZE); the pips left are round (SKIP_ROUND) and of a
    pip's shape, and the counts in held square with the face's edges, as the first chooser asks.
    """
    best = None
    shapes: dict[int, tuple[float, float, float] | None] = {}  # _spot_shape of peak i, made once

    def shape(i: int) -> tuple[float, float, float] | None:
        if i not in shapes:
            shapes[i] = _spot_shape(peaks[i], contrast, face, side)
        return shapes[i]

    for k in range(3, min(5, len(peaks) - 1) + 1):
        for j in range(k + 1):
            # the pips left, strongest first: peaks 0..k less j
            if peaks[k if j < k else k - 1][2] < max(floor, EVEN * peaks[1 if j == 0 else 0][2]):
                continue
            streak = shape(j)
            if streak is None or streak[1] < SKIP_FLAT:
                continue
            sel = peaks[:j] + peaks[j + 1:k + 1]
            weakest = sel[-1][2]
            pts = np.array([(t[0], t[1]) for t in sel], np.float32)
            err = layout_error(pts, side)
            if err is None:
                continue
            rest = peaks[k + 1][2] if k + 1 < len(peaks) else 0.0
            score = 1.0 - rest / max(1e-3, weakest) - err
            if best is not None and score <= best[0]:
                continue  # cannot beat the best: the checks below (each only a filter) need not be made
            if k in held and layout_tilt(pts, edge_angle) > MAX_TILT:
                continue
            pips = [shape(i) for i in range(k + 1) if i != j]
            if any(sh is None or sh[1] > SKIP_ROUND for sh in pips):
                continue
            if streak[0] > SKIP_SIZE * min(sh[0] for sh in pips):
                continue
            if not _pip_shaped(sel, smooth, inside, side, contrast):
                continue
            best = (score, k, pts)
    return best


def _past_the_outline(peaks: list[tuple[float, float, float]], smooth: np.ndarray, inside: np.ndarray, side: float,
                      centre: np.ndarray, edge_angle: float, contrast: np.ndarray, face: np.ndarray, floor: float,
                      held: tuple[int, ...], edge: np.ndarray) -> tuple[float, int, np.ndarray] | None:
    """The best face (_choose) of 3-6 pips once up to OUTLINE_DROP peaks on the face's outline are passed over.

    The face patch's outline is where the die's edge, a glint on its rim and a side face's pip
    show; among the strongest peaks they keep the layout from forming or, as the next peak,
    make it unsure. A peak passed over must lie on the outline (OUTLINE_EDGE) and beyond the
    face it leaves (OUTLINE_BEYOND): a pip of that face is never farther out than its own
    corner pips, so a 6's column or a 4's pair on the outline cannot be passed over to
    leave a smaller face.
    """
    top = peaks[:OUTLINE_TOP]
    on = [i for i, t in enumerate(top) if edge[int(t[1]), int(t[0])] <= OUTLINE_EDGE]
    # the face's pips lie off the outline: the outline's peaks before its third pip must all be passed over
    off = [i for i in range(len(peaks)) if i not in on][:OUTLINE_LEAST]
    if len(off) < OUTLINE_LEAST:
        return None
    forced = {i for i in on if i < off[-1]}
    best = None
    for m in range(max(1, len(forced)), min(OUTLINE_DROP, len(on)) + 1):
        for drop in itertools.combinations(on, m):
            if not forced <= set(drop):
                continue
            rest = [t for i, t in enumerate(peaks) if i not in drop]
            if len(rest) < OUTLINE_LEAST or rest[OUTLINE_LEAST - 1][2] < max(floor, EVEN * rest[0][2]):
                continue  # the chooser stops below OUTLINE_LEAST pips (its EVEN and floor bounds): no face to take
            cand = _choose(rest, smooth, inside, side, centre, edge_angle, contrast, face, floor, None, OWN_LEVEL, held)
            if cand is None or cand[1] < OUTLINE_LEAST or (best is not None and cand[0] <= best[0]):
                continue
            pts = cand[2]
            if any(edge[int(y), int(x)] <= OUTLINE_EDGE for x, y in pts):
                continue  # a face cut by the outline: what lies on it may be its own pips
            c = centroid(pts)
            reach = float(np.hypot(*(pts - c).T).max()) + OUTLINE_BEYOND * side
            if any(np.hypot(top[i][0] - c[0], top[i][1] - c[1]) < reach for i in drop):
                continue
            if _bigger_face(pts, [top[i] for i in on], side):
                continue
            best = (min(cand[0], OUTLINE_SURE), cand[1], pts)
    return best


def _bigger_face(pts: np.ndarray, outline: list[tuple[float, float, float]], side: float) -> bool:
    """Do the face's pips and some of the outline's peaks (not on its pips) make a face of more pips?"""
    extra = [(t[0], t[1]) for t in outline if float(np.hypot(*(pts - np.float32(t[:2])).T).min()) >= MIN_APART * side]
    for m in range(1, min(len(extra), 6 - len(pts)) + 1):
        for more in itertools.combinations(extra, m):
            if layout_error(np.concatenate([pts, np.float32(more)]), side) is not None:
                return True
    return False

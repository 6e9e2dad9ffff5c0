#!/usr/bin/env bash
# simc-view --video and --png (doc/viewer.md): frames of the page rendered by
# headless Chromium, encoded by ffmpeg.  On a 0.5 s run of
# scenes/sphere_drop.yaml (the ball falls 8 cm between two frames at its
# fastest):
#  - --video at 30 frames/s: ffprobe counts 16 frames (t = 0, 1/30, ...,
#    0.5 s) of the asked size, lasting 16/30 s (one frame, 1/30 s); a .gif
#    of 10 frames/s has 6;
#  - the frame at t = 0.2 s (the 7th) equals the still of t = 0.2 s
#    (--png t=0.2): mean absolute difference at most 1.5 levels and at most
#    0.2 % of the pixels more than 48 levels apart (H.264 at crf 16 blurs the
#    sharp edges: the time stamp, the floor's squares); the frame before it
#    (t = 0.1667 s) must not pass, so the check tells the times apart;
#  - the still has the time stamp burned in: the stamp's region (top left)
#    differs between the stills of t = 0.2 and t = 0.3 s;
#  - refusals: an unknown video format, --png outside the run, a file that
#    is not an image or video as the output.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

viewer_deps h5py numpy websocket PIL || exit 1
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null ||
  { echo "FAIL video_dependencies (run: sudo apt-get install -y ffmpeg)"; exit 1; }
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/run.h5" --duration 0.5 --quiet ||
  { echo "FAIL simc_runs"; exit 1; }

VIEW="timeout -k 5 200 $PY tools/simc-view"
$VIEW "$tmp/run.h5" --video "$tmp/run.mp4" --fps 30 --size 480x320 >"$tmp/out" 2>&1
sed 's/^/  /' "$tmp/out"
probe() {  # FILE: frames width height duration
  ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=nb_read_frames,width,height:format=duration -of csv=p=0 "$1" 2>/dev/null |
    tr '\n' ',' | awk -F, '{print $3, $1, $2, $4}'
}
read -r n w h d < <(probe "$tmp/run.mp4")
ok video_frame_count_and_duration "[ '${n:-0}' = 16 ] && [ '${w:-0}' = 480 ] && [ '${h:-0}' = 320 ] &&
  $PY -c 'import sys; sys.exit(0 if abs(float(\"${d:-0}\") - 16 / 30) <= 1 / 30 else 1)'"
echo "  ffprobe: $n frames, ${w}x$h, $d s (16 frames, 480x320, 0.533 s expected)"
$VIEW "$tmp/run.h5" --video "$tmp/run.gif" --fps 10 --size 240x160 >/dev/null 2>&1
read -r n w h d < <(probe "$tmp/run.gif")
ok gif_frame_count "[ '${n:-0}' = 6 ]"
echo "  ffprobe: $n frames, ${w}x$h (6 expected)"

$VIEW "$tmp/run.h5" --png t=0.2 -o "$tmp/still.png" --size 480x320 >/dev/null 2>&1 &&
$VIEW "$tmp/run.h5" --png t=0.3 -o "$tmp/still3.png" --size 480x320 >/dev/null 2>&1 &&
ffmpeg -v error -y -i "$tmp/run.mp4" -vf 'select=eq(n\,6)' -vframes 1 "$tmp/f6.png" &&
ffmpeg -v error -y -i "$tmp/run.mp4" -vf 'select=eq(n\,5)' -vframes 1 "$tmp/f5.png" ||
  echo "FAIL stills_and_frames_written"
"$PY" - "$tmp" <<'PY'
import sys
import numpy as np
from PIL import Image
d = sys.argv[1]
def img(n):
    return np.asarray(Image.open("%s/%s" % (d, n)).convert("RGB")).astype(int)
still = img("still.png")
def close(frame):
    a = img(frame)
    if a.shape != still.shape:
        return False, "shape %s vs %s" % (a.shape, still.shape)
    diff = np.abs(a - still)
    mean, far = diff.mean(), (diff.max(axis=2) > 48).mean()
    return mean <= 1.5 and far <= 0.002, "mean %.2f levels, %.3f %% of pixels over 48 levels" % (mean, 100 * far)
ok6, s6 = close("f6.png")
ok5, s5 = close("f5.png")
print("%s video_frame_equals_still (frame 7, t = 0.2 s: %s; tolerance 1.5 levels and 0.2 %%; "
      "frame 6, t = 0.1667 s: %s, must fail: %s)" % ("PASS" if ok6 and not ok5 else "FAIL", s6, s5, not ok5))
# the time stamp, top left ("sphere_drop   t = 0.200 s"; its digits at
# x 180..330 px, above the ball): it differs between the stills of two times
a, b = still[:40, 180:330], img("still3.png")[:40, 180:330]
n = int((np.abs(a - b).max(axis=2) > 64).sum())
print("%s still_has_time_stamp (%d pixels of the stamp differ between t = 0.2 and 0.3 s)"
      % ("PASS" if n > 30 else "FAIL", n))
PY

$VIEW "$tmp/run.h5" --video "$tmp/run.avi" >/dev/null 2>"$tmp/err"; rc=$?
ok video_refuses_unknown_format "[ $rc = 2 ] && grep -q '.mp4, .webm or .gif' '$tmp/err' && [ ! -e '$tmp/run.avi' ]"
$VIEW "$tmp/run.h5" --png t=7 -o "$tmp/late.png" >/dev/null 2>"$tmp/err"; rc=$?
ok png_refuses_time_outside_run "[ $rc = 1 ] && grep -q 'outside the run' '$tmp/err' && [ ! -e '$tmp/late.png' ]"
cp scenes/sphere_drop.yaml "$tmp/scene.mp4"
$VIEW "$tmp/run.h5" --video "$tmp/scene.mp4" >/dev/null 2>"$tmp/err"; rc=$?
ok video_refuses_to_replace_other_file "[ $rc = 1 ] && grep -q 'not an image or video' '$tmp/err' &&
  cmp -s scenes/sphere_drop.yaml '$tmp/scene.mp4'"
exit 0

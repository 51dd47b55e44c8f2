#!/bin/sh
# Regenerates the preview fixtures (needs ffmpeg, exiftool and ../shared/corpus).
# cover.jpg is a 160x120 JPEG; it becomes
#   heif-exif-thumb.heif: a real 640x426 HEIF (samplefilehub.heif) with it as EXIF ThumbnailImage,
#   mp4-cover.mp4:        a short MPEG-4 video with it as cover art (ilst covr).
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
ffmpeg -loglevel error -f lavfi -i testsrc=size=160x120:rate=1 -frames:v 1 -q:v 5 "$tmp/cover.jpg"
cp ../../../../../shared/corpus/exif-samples/heic/samplefilehub.heif heif-exif-thumb.heif
chmod u+w heif-exif-thumb.heif
exiftool -q -overwrite_original "-ThumbnailImage<=$tmp/cover.jpg" heif-exif-thumb.heif
ffmpeg -loglevel error -f lavfi -i testsrc=size=64x48:rate=5 -t 0.4 -c:v mpeg4 -q:v 10 "$tmp/v.mp4"
ffmpeg -loglevel error -y -i "$tmp/v.mp4" -i "$tmp/cover.jpg" -map 0 -map 1 -c copy -disposition:v:1 attached_pic mp4-cover.mp4
rm -r "$tmp"

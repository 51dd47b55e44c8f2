#!/bin/sh
# Regenerates the small real files in this folder with the tools that write
# them in the wild, and ExifTool's reading of them (truth-exiftool.json).
# Needs (Debian): apt-get install -y libimage-exiftool-perl imagemagick ffmpeg
# The tests read the committed files; they never run this script.
set -eu
cd "$(dirname "$0")"
rm -f ./*.png ./*.jpg ./*.tif ./*.mkv ./*.webm ./*.wmv ./*.wma ./*.dv truth-exiftool.json
et() { exiftool -q -overwrite_original "$@"; }
nodate="-define png:exclude-chunk=date,tIME"

# PNG -----------------------------------------------------------------
# ImageMagick's own tEXt date:create / date:modify (set here, not "now").
convert -size 8x8 xc:red -set date:create 2019-07-04T15:30:00+02:00 -set date:modify 2019-07-05T10:00:00+02:00 \
	-define png:exclude-chunk=tIME png-magick-date.png
# tEXt "Creation Time" (EXIF style).
convert -size 8x8 xc:blue $nodate png-creation-text.png
et -PNG:CreationTime="2018:05:06 07:08:09" png-creation-text.png
# iTXt XMP, plain and zlib-compressed.
convert -size 8x8 xc:green $nodate png-xmp.png
et -XMP-exif:DateTimeOriginal="2017:01:02 03:04:05+01:00" -XMP-xmp:CreateDate="2017:01:02 03:04:06" png-xmp.png
convert -size 9x9 xc:green $nodate png-xmp-z.png
et -z -XMP-exif:DateTimeOriginal="2017:01:03 03:04:05+01:00" png-xmp-z.png
# eXIf chunk written by ExifTool.
convert -size 8x8 xc:yellow $nodate png-exif.png
et -EXIF:DateTimeOriginal="2016:08:09 10:11:12" -EXIF:Make=Shoebox png-exif.png
# ImageMagick converting a JPEG with EXIF: an eXIf chunk and tEXt copies
# (exif:DateTimeOriginal …); without eXIf, only the tEXt copies.
convert -size 8x8 xc:orange src.jpg
et -EXIF:DateTimeOriginal="2015:03:04 05:06:07" -EXIF:CreateDate="2015:03:04 05:06:08" src.jpg
convert src.jpg $nodate png-magick-exif.png
convert src.jpg -define png:exclude-chunk=date,tIME,eXIf png-magick-exiftext.png
# Older ImageMagick keeps EXIF as a zTXt "Raw profile type exif" (hex
# text); this one no longer writes it, so the chunk is built here from the
# JPEG's own APP1, exactly as ImageMagick 6 laid it out.
convert -size 8x8 xc:orange $nodate png-rawprofile.png
python3 - src.jpg png-rawprofile.png <<'PY'
import struct, sys, zlib, binascii
jpg, png = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
i = jpg.index(b'Exif\0\0')
n = struct.unpack('>H', jpg[i-2:i])[0] - 2
exif = jpg[i:i+n]
h = binascii.hexlify(exif).decode()
text = '\nexif\n%8d\n' % len(exif) + '\n'.join(h[k:k+72] for k in range(0, len(h), 72)) + '\n'
data = b'Raw profile type exif\0\0' + zlib.compress(text.encode())
chunk = struct.pack('>I', len(data)) + b'zTXt' + data
chunk += struct.pack('>I', zlib.crc32(b'zTXt' + data) & 0xffffffff)
end = png.rindex(b'IEND') - 4
open(sys.argv[2], 'wb').write(png[:end] + chunk + png[end:])
PY
rm -f src.jpg
# tIME only (last modification, ranked like ModifyDate).
convert -size 8x8 xc:purple $nodate png-time.png
et -PNG:ModifyDate="2016:02:29 12:00:00" png-time.png
# No date at all.
convert -size 8x8 xc:gray $nodate png-nodate.png

# IPTC ----------------------------------------------------------------
convert -size 8x8 xc:red iptc-created.jpg
et -IPTC:DateCreated=2014:06:07 -IPTC:TimeCreated=08:09:10+02:00 iptc-created.jpg
convert -size 8x8 xc:blue iptc-digital.jpg
et -IPTC:DigitalCreationDate=2013:12:31 -IPTC:DigitalCreationTime=23:59:58 iptc-digital.jpg
convert -size 8x8 xc:green iptc-dateonly.jpg
et -IPTC:DateCreated=2012:02:29 iptc-dateonly.jpg
convert -size 8x8 xc:white -compress none iptc.tif
et -IPTC:DateCreated=2011:11:11 -IPTC:TimeCreated=11:11:11 iptc.tif

# Matroska / WebM -----------------------------------------------------
clip="-hide_banner -loglevel error -f lavfi -i testsrc=size=16x16:rate=1 -t 1 -pix_fmt yuv420p"
ffmpeg $clip -c:v mpeg4 -metadata creation_time=2010-02-03T21:17:48Z -y mkv-dated.mkv
ffmpeg $clip -c:v ffv1 -metadata creation_time=2021-12-31T23:59:59Z -y mkv-ffv1.mkv
ffmpeg $clip -c:v libvpx -b:v 20k -metadata creation_time=2020-06-15T12:00:00Z -y webm-dated.webm
ffmpeg $clip -c:v mpeg4 -fflags +bitexact -y mkv-nodate.mkv

# ASF / WMV / WMA -----------------------------------------------------
ffmpeg $clip -c:v wmv1 -metadata creation_time=2004-10-28T17:23:34Z -y asf-dated.wmv
ffmpeg -hide_banner -loglevel error -f lavfi -i sine=duration=0.2 -c:a wmav2 -metadata creation_time=2009-09-09T09:09:09Z -y asf-audio.wma
ffmpeg $clip -c:v wmv2 -y asf-nodate.wmv

# DV ------------------------------------------------------------------
# ffmpeg's DV muxer writes creation_time into the VAUX recording date and
# time packs of every frame; the first 60 DIF blocks (4800 bytes) of one
# frame hold them, so the files are cut there to stay small.
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=720x576:rate=25 -t 0.04 -c:v dvvideo -pix_fmt yuv420p \
	-metadata creation_time=2010-02-16T21:36:28Z -f dv -y frame.dv
head -c 4800 frame.dv > dv-pal.dv
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=720x480:rate=30000/1001 -t 0.04 -c:v dvvideo -pix_fmt yuv411p \
	-metadata creation_time=1999-12-31T23:59:59Z -f dv -y frame.dv
head -c 4800 frame.dv > dv-ntsc.dv
rm -f frame.dv

exiftool -json -G1 -a ./*.png ./*.jpg ./*.tif ./*.mkv ./*.webm ./*.wmv ./*.wma ./*.dv > truth-exiftool.json
ls -l

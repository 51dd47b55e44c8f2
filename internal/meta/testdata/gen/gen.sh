#!/bin/sh
# Regenerates the small real files in this folder with the tools that write
# them in the wild, and ExifTool's reading of them (truth-exiftool.json).
# Needs (Debian): apt-get install -y libimage-exiftool-perl imagemagick ffmpeg libtiff-tools
# The tests read the committed files; they never run this script.
set -eu
cd "$(dirname "$0")"
exts="png jpg tif mkv webm wmv wma dv btf dng 3fr fff erf mef mos iiq nrw srw pef gpr psd gif jxl flv mpg bmp avif webp heic"
for e in $exts; do rm -f ./*."$e"; done
rm -f truth-exiftool.json
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
ffmpeg $clip -c:v libvpx -b:v 20k -fflags +bitexact -f webm -y webm-nodate.webm

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

# BigTIFF -------------------------------------------------------------
# libtiff's tiffcp -8 writes BigTIFF (version 43, 8-byte offsets); it
# keeps IFD0 but drops the Exif IFD, so tiffset writes the date into IFD0.
convert -size 8x8 xc:red -compress none src.tif
tiffcp -8 src.tif bigtiff-le.btf
tiffset -s 306 "2003:03:03 13:13:13" bigtiff-le.btf
tiffcp -8 -B src.tif bigtiff-be.btf
tiffset -s 306 "2002:02:02 12:12:12" bigtiff-be.btf
tiffset -s 271 "Shoebox" bigtiff-be.btf
tiffcp -8 src.tif bigtiff-nodate.btf
rm -f src.tif

# TIFF-based RAW families ---------------------------------------------
# Small TIFFs with ExifTool's EXIF, named as each RAW family: ExifTool
# reads each as that type (FileType 3FR, IIQ …), as shoebox must. They are
# not camera files (the corpus has a real IIQ and GPR); they prove the
# TIFF reader takes each family, in both byte orders.
i=0
for e in 3fr fff erf mef mos iiq nrw srw pef gpr; do
	i=$((i + 1))
	if [ $((i % 2)) = 0 ]; then endian=MSB; else endian=LSB; fi
	convert -size 8x8 xc:red -endian $endian -compress none src.tif
	et -EXIF:DateTimeOriginal="20$((10 + i)):0$((i % 9 + 1)):1$((i % 9)) 10:20:30" -EXIF:Make=Shoebox src.tif
	mv src.tif raw-$e.$e
	# A second sample of each family, in the other byte order, dated only by
	# XMP in IFD0 (tag 700), as raw converters and DAM tools write it.
	if [ $endian = MSB ]; then endian=LSB; else endian=MSB; fi
	convert -size 8x8 xc:blue -endian $endian -compress none src.tif
	et -XMP-xmp:CreateDate="19$((80 + i)):1$((i % 3)):0$((i % 9 + 1)) 01:02:03" -EXIF:Make=Shoebox src.tif
	mv src.tif raw-xmp-$e.$e
done
# DNG is told by DNGVersion in IFD0 (any extension): one with EXIF, one
# with XMP only.
convert -size 8x8 xc:red -compress none src.tif
et -IFD0:DNGVersion=1.4.0.0 -EXIF:DateTimeOriginal="2012:12:12 12:12:12" src.tif
mv src.tif dng-exif.dng
convert -size 8x8 xc:red -endian MSB -compress none src.tif
et -IFD0:DNGVersion=1.4.0.0 -XMP-exif:DateTimeOriginal="2013:03:13 13:13:13" src.tif
mv src.tif dng-xmp.dng

# PSD -----------------------------------------------------------------
# Photoshop image resources: EXIF (0x0422), XMP (0x0424), IPTC (0x0404).
convert -size 8x8 xc:red psd-exif.psd
et -EXIF:DateTimeOriginal="2010:01:02 03:04:05" psd-exif.psd
convert -size 8x8 xc:red psd-xmp.psd
et -XMP-xmp:CreateDate="2009:01:02 03:04:05" psd-xmp.psd
convert -size 8x8 xc:red psd-iptc.psd
et -IPTC:DateCreated=2008:01:02 -IPTC:TimeCreated=03:04:05 psd-iptc.psd
convert -size 8x8 xc:red psd-nodate.psd

# GIF -----------------------------------------------------------------
# XMP in the "XMP DataXMP" application extension, before the image data.
convert -size 8x8 xc:red gif-xmp.gif
et -XMP-xmp:CreateDate="2007:01:02 03:04:05" gif-xmp.gif
convert -size 64x64 plasma:fractal -seed 1 gif-xmp-big.gif
et -XMP-exif:DateTimeOriginal="2006:01:02 03:04:05" gif-xmp-big.gif
convert -size 8x8 xc:red gif-nodate.gif

# JPEG XL -------------------------------------------------------------
# ffmpeg's libjxl writes a bare codestream; ExifTool wraps it in the
# ISO BMFF container to add Exif and xml boxes.
jxl="-hide_banner -loglevel error -f lavfi -i testsrc=size=16x16 -frames:v 1 -c:v libjxl -y"
ffmpeg $jxl jxl-exif.jxl
et -m -EXIF:DateTimeOriginal="2005:01:02 03:04:05" jxl-exif.jxl
ffmpeg $jxl jxl-xmp.jxl
et -m -XMP-xmp:CreateDate="2004:01:02 03:04:05" jxl-xmp.jxl
ffmpeg $jxl jxl-codestream.jxl

# Extended XMP (JPEG) -------------------------------------------------
# The date lives in the extended part, cut between two APP1 chunks
# (written in reverse order); the main packet names the GUID.
convert -size 8x8 xc:red src.jpg
for d in "2001:01:01 01:01:01" "1999:09:09 09:09:09"; do
	out=xmp-extended-$(echo "$d" | cut -c1-4).jpg
	python3 - src.jpg "$out" "$d" <<'PY'
import struct, sys, hashlib
src, out, date = sys.argv[1], sys.argv[2], sys.argv[3]
ext = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
       '<dc:description><rdf:Alt><rdf:li xml:lang="x-default">' + 'x' * 300 + '</rdf:li></rdf:Alt></dc:description>'
       '<exif:DateTimeOriginal>' + date + '</exif:DateTimeOriginal>'
       '</rdf:Description></rdf:RDF></x:xmpmeta>').encode()
guid = hashlib.md5(ext).hexdigest().upper().encode()
main = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""'
        ' xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="' + guid.decode() + '"/>'
        '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>').encode()
def app1(body):
    return b'\xff\xe1' + struct.pack('>H', len(body) + 2) + body
cut = ext.index(date.encode()) + 5
segs = app1(b'http://ns.adobe.com/xap/1.0/\0' + main)
for off in (cut, 0):
    part = ext[off:] if off else ext[:cut]
    segs += app1(b'http://ns.adobe.com/xmp/extension/\0' + guid + struct.pack('>II', len(ext), off) + part)
jpg = open(src, 'rb').read()
open(out, 'wb').write(jpg[:2] + segs + jpg[2:])
PY
done
rm -f src.jpg

# Flash video -----------------------------------------------------------
# ffmpeg writes every metadata key into onMetaData; "creationdate" is the
# one Flash writers used (ExifTool: Flash:CreateDate).
clip1="-hide_banner -loglevel error -f lavfi -i testsrc=size=16x16:rate=1 -t 1"
ffmpeg $clip1 -metadata creationdate="Mon Jan 19 12:34:56 2009" -y flv-dated.flv
ffmpeg $clip1 -metadata creationdate="Sat Feb 29 23:59:59 2020" -y flv-leap.flv
ffmpeg $clip1 -fflags +bitexact -y flv-nodate.flv

# AVIF and WebP --------------------------------------------------------
# AVIF from ffmpeg's libaom still picture: ExifTool adds an Exif item or an
# XMP item (mime application/rdf+xml) to the HEIF meta box. WebP from
# ImageMagick: ExifTool adds EXIF and XMP chunks (VP8X).
avif="-hide_banner -loglevel error -f lavfi -i testsrc=size=64x64 -frames:v 1 -c:v libaom-av1 -still-picture 1 -y"
ffmpeg $avif avif-xmp.avif
et -m -XMP-xmp:CreateDate="2003:04:05 06:07:08" avif-xmp.avif
ffmpeg $avif avif-exif.avif
et -m -EXIF:DateTimeOriginal="2002:04:05 06:07:08" avif-exif.avif
ffmpeg $avif avif-nodate.avif
convert -size 8x8 xc:red webp-xmp.webp
et -XMP-exif:DateTimeOriginal="2001:05:06 07:08:09" webp-xmp.webp
convert -size 8x8 xc:red webp-exif.webp
et -EXIF:DateTimeOriginal="2000:05:06 07:08:09" webp-exif.webp

# HEIC (ImageMagick with libheif/x265): ExifTool adds an XMP item or an
# Exif item, as for AVIF.
convert -size 64x64 xc:red heic-xmp.heic
et -XMP-exif:DateTimeOriginal="2000:02:29 10:20:30" heic-xmp.heic
convert -size 64x64 xc:blue heic-exif.heic
et -EXIF:DateTimeOriginal="1999:12:31 23:59:59" heic-exif.heic
convert -size 64x64 xc:green heic-nodate.heic

# Formats that carry no date -----------------------------------------
# MPEG-PS and BMP have no date field (ExifTool finds none either, even
# when ffmpeg is given one).
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=16x16:rate=25 -t 0.2 \
	-metadata creation_time=2003-01-02T03:04:05Z -f mpeg -y mpeg-ps.mpg
convert -size 8x8 xc:red bmp-plain.bmp
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc=size=16x16:rate=25 -t 0.2 -c:v mpeg2video \
	-metadata creation_time=2003-01-02T03:04:05Z -f vob -y mpeg-ps-vob.mpg
convert -size 8x8 xc:blue BMP3:bmp-v3.bmp

exiftool -json -G1 -a $(for e in $exts; do ls ./*."$e" 2>/dev/null; done) > truth-exiftool.json
ls -l

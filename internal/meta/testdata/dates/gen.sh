#!/bin/sh
# Regenerates the small real files of issue 25's date classes with the
# tools that write them in the wild, and ExifTool's reading of them
# (truth-exiftool.json). Needs (Debian): apt-get install -y
# libimage-exiftool-perl imagemagick. The tests read the committed files;
# they never run this script. Damaged variants are made by byte edits.
set -eu
cd "$(dirname "$0")"
rm -f ./*.jpg ./*.png truth-exiftool.json
et() { exiftool -q -overwrite_original "$@"; }
im() { convert-im6.q16 "$@"; } # Debian's ImageMagick 6 (a stand-in named convert may shadow it)
nodate="-define png:exclude-chunk=date,tIME"
# sub FILE OLD NEW: replace bytes OLD by NEW (same length) once in FILE.
sub() { python3 -c 'import sys; f,o,n=sys.argv[1],sys.argv[2].encode().decode("unicode_escape").encode("latin1"),sys.argv[3].encode().decode("unicode_escape").encode("latin1"); b=open(f,"rb").read(); assert len(o)==len(n) and o in b, (o,n); open(f,"wb").write(b.replace(o,n,1))' "$@"; }

# MWG: which date is the capture date ----------------------------------
# A scanned print: the scanner's EXIF CreateDate and XMP CreateDate are
# the scan day, the owner's photoshop:DateCreated the day it was taken.
im -size 8x8 xc:gray mwg-scan.jpg
et -EXIF:CreateDate="2024:05:06 07:08:09" -XMP-xmp:CreateDate="2024:05:06 07:08:09" -XMP-photoshop:DateCreated="2003:07:08" mwg-scan.jpg
# The same dated in IPTC (digiKam, Photo Mechanic) with no XMP date.
im -size 8x8 xc:gray mwg-scan-iptc.jpg
et -EXIF:CreateDate="2024:05:06 07:08:09" -IPTC:DateCreated=2003:07:08 -IPTC:TimeCreated=12:00:00 mwg-scan-iptc.jpg
# IPTC and XMP disagree. No digest: XMP first.
im -size 8x8 xc:gray mwg-nodigest.jpg
et -IPTC:DateCreated=2001:02:03 -XMP-photoshop:DateCreated="2002:03:04 05:06:07" mwg-nodigest.jpg
# Digest of the IPTC as written with the XMP: in sync, XMP first.
cp mwg-nodigest.jpg mwg-synced.jpg
et -Photoshop:IPTCDigest=new mwg-synced.jpg
# The IPTC changed afterwards by a tool that leaves the digest: IPTC first.
cp mwg-synced.jpg mwg-iptc-changed.jpg
sub mwg-iptc-changed.jpg '\x1c\x02\x37\x00\x0820010203' '\x1c\x02\x37\x00\x0820050607'
# The CreateDate equivalents, changed IPTC: DigitalCreationDate first.
im -size 8x8 xc:gray mwg-digital-changed.jpg
et -IPTC:DigitalCreationDate=2010:01:02 -XMP-xmp:CreateDate="2011:02:03 04:05:06" -Photoshop:IPTCDigest=new mwg-digital-changed.jpg
sub mwg-digital-changed.jpg '\x1c\x02\x3e\x00\x0820100102' '\x1c\x02\x3e\x00\x0820090102'
# A print dated by its owner with a year only, or a year and month (XMP
# and ISO 8601 allow both), over the scan day: filed in that year.
im -size 8x8 xc:gray mwg-year-only.jpg
et -EXIF:CreateDate="2024:05:06 07:08:09" -XMP-xmp:CreateDate="2024:05:06 07:08:09" -XMP-photoshop:DateCreated=1975 mwg-year-only.jpg
im -size 8x8 xc:gray mwg-year-month.jpg
et -XMP-xmp:CreateDate="2024:05:06 07:08:09" -XMP-photoshop:DateCreated=1975:06 mwg-year-month.jpg
# XMP ModifyDate, the only date of an edited export.
im -size 8x8 xc:gray $nodate xmp-modify-only.jpg
et -XMP-xmp:ModifyDate="2019:10:11 12:13:14+02:00" xmp-modify-only.jpg
# EXIF ModifyDate beats XMP ModifyDate (same kind: EXIF first).
im -size 8x8 xc:gray xmp-modify-exif.jpg
et -EXIF:ModifyDate="2018:01:02 03:04:05" -XMP-xmp:ModifyDate="2019:10:11 12:13:14" xmp-modify-exif.jpg

# A damaged time keeps the day -----------------------------------------
for v in "sec70:17:47:70" "sec88:17:47:88" "hour57:57:47:14" "cr:1\\r:47:14"; do
	name=${v%%:*}; t=${v#*:}
	im -size 8x8 xc:gray time-$name.jpg
	et -EXIF:DateTimeOriginal="2011:10:06 17:47:14" time-$name.jpg
	sub time-$name.jpg '2011:10:06 17:47:14' "2011:10:06 $t"
done
# The same in XMP (the EXIF date rejected, XMP dates the file).
im -size 8x8 xc:gray time-xmp-sec88.jpg
et -XMP-photoshop:DateCreated="2012:03:04 05:06:07+01:00" time-xmp-sec88.jpg
sub time-xmp-sec88.jpg '2012-03-04T05:06:07+01:00' '2012-03-04T05:06:88+01:00'
# A dotted date (2005.09.15), as some writers put it.
im -size 8x8 xc:gray date-dotted.jpg
et -EXIF:DateTimeOriginal="2005:09:15 10:11:12" date-dotted.jpg
sub date-dotted.jpg '2005:09:15 10:11:12' '2005.09.15 10:11:12'

# ImageMagick's PNG text ------------------------------------------------
# create-date / modify-date keywords (tEXt; zTXt with -define png:compression...)
im -size 8x8 xc:red $nodate -set create-date 2007-08-09T10:11:12+02:00 -set modify-date 2008-01-01T00:00:00 png-create-date.png
im -size 8x8 xc:red $nodate -set modify-date 2008-02-03T04:05:06 png-modify-date.png
# Creation Time as RFC 1123 (ExifTool writes it so) and as RFC 3339.
im -size 8x8 xc:red $nodate png-rfc1123.png
et -PNG:CreationTime="2006:05:04 03:02:01+02:00" png-rfc1123.png
im -size 8x8 xc:red $nodate -set "Creation Time" 2006-05-04T03:02:01Z png-rfc3339.png
# A capture date beats the conversion stamps around it.
im -size 8x8 xc:red -set date:create 2021-01-01T00:00:00+00:00 -set date:modify 2020-12-31T00:00:00+00:00 \
	-define png:exclude-chunk=tIME -set "Creation Time" "Sat, 04 Jun 2005 10:00:00 GMT" png-stamps-and-creation.png
# XMP as "Raw profile type xmp" (hex text in a zTXt chunk), as ImageMagick
# writes an XMP profile it carries over from a JPEG.
im -size 8x8 xc:gray xmpsrc.jpg
et -XMP-exif:DateTimeOriginal="2004:05:06 07:08:09" xmpsrc.jpg
im xmpsrc.jpg $nodate png-rawprofile-xmp.png
rm -f xmpsrc.jpg
# ... without ImageMagick's tEXt copy (xmp:DateTimeOriginal), so that only
# the raw profile dates it.
python3 - png-rawprofile-xmp.png png-rawprofile-xmp-only.png <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read(); out = b[:8]; i = 8
while i < len(b):
    n = struct.unpack('>I', b[i:i+4])[0]
    if not (b[i+4:i+8] == b'tEXt' and b[i+8:].startswith(b'xmp:')):
        out += b[i:i+12+n]
    i += 12 + n
open(sys.argv[2], 'wb').write(out)
PY

# FLIR -------------------------------------------------------------------
# ExifTool's sample FLIR.jpg with every other date removed: the FLIR
# record's CameraInfo is the only date left. Its damaged variant has a
# CameraInfo entry pointing past the record.
corpus=${SHOEBOX_CORPUS:-../../../../../shared/corpus}
if [ -f "$corpus/exiftool-images/FLIR.jpg" ]; then
	cp "$corpus/exiftool-images/FLIR.jpg" flir-only.jpg
	chmod u+w flir-only.jpg
	et -EXIF:all= -XMP:all= flir-only.jpg
	cp flir-only.jpg flir-bad-dir.jpg
	python3 - flir-bad-dir.jpg <<'PY'
import sys, struct
f = sys.argv[1]; b = bytearray(open(f, 'rb').read())
i = b.index(b'FLIR\x00\x01') + 8          # the FFF file
d = struct.unpack('>I', b[i+0x18:i+0x1c])[0]
for k in range(16):                        # the CameraInfo entry's offset -> far away
    e = i + d + 32*k
    if struct.unpack('>H', b[e:e+2])[0] == 0x20:
        b[e+12:e+16] = struct.pack('>I', 0x7ffffff0)
open(f, 'wb').write(b)
PY
fi

exiftool -json -G1 -a ./*.jpg ./*.png > truth-exiftool.json
ls -l

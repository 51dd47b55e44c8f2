// Package layout turns a destination template such as
// "{year}/{year}-{month}-{day}/{name}{ext}" into a relative directory and
// file name for each file, and makes every path segment safe to create on
// FAT, exFAT, SMB and NTFS as well as on Unix filesystems.
//
// # Template tokens
//
// Segments are separated by "/". Text outside braces is copied as is;
// "{{" and "}}" stand for literal braces.
//
//	{year}       capture year, 4 digits: 2019
//	{yy}         year, 2 digits: 19
//	{month}      month, 01-12
//	{monthname}  month name in English: July
//	{mon}        short month name: Jul
//	{day}        day of the month, 01-31
//	{hour}       hour, 00-23
//	{minute}     minute, 00-59
//	{second}     second, 00-59
//	{date}       the date as {year}-{month}-{day}: 2019-07-04
//	{name}       original file name without its extension: IMG_0042
//	{ext}        original extension with its dot, as found: .JPG
//	{make}       camera make ("unknown" when absent): Apple
//	{model}      camera model ("unknown" when absent): iPhone 12
//	{kind}       "photo" or "video"
//	{counter}    per-directory sequence number: 7
//	{counter:4}  the same, zero-padded to 4 digits (widths 1-9): 0007
//	{folder}     the name of the folder the source file is in: Rome
//	{folder:2}   the folder above that (1-9), never above the source root
//	             ("unknown" there)
//	{source}     the source root's own name: card
//	{album}      the Google Takeout album the file is in: Trip to Rome
//	             ("unknown" for a file in no album, as in "Photos from 2019")
//
// Every text token ({name}, {ext}, {make}, {model}, {kind}, {monthname},
// {mon}, {folder}, {source}, {album}) takes the modifiers ":lower" and ":upper", as in {ext:lower}.
// Date and time fields are the capture time's wall clock, read as recorded.
//
// A template is rejected when it is empty, absolute, contains a "." or ".."
// segment, an empty segment or a backslash, uses an unknown token (the
// error suggests the closest one), leaves a brace unclosed, puts {counter}
// anywhere but the last segment, has a last segment with neither {name}
// nor {counter} (every file of a day would get the same name), or drops
// the extension (no {ext} in the last segment), or spells outright a name
// shoebox keeps for itself (see Reserved).
//
// Every segment of every expansion goes through SafeName, which also
// escapes, with a leading "_", any segment Reserved says names shoebox's
// own files (DEST/.shoebox, its temps): that is the one place the rule is
// enforced for template output, file names, the unknown folder, conflict
// renames and companions alike.
package layout

/* bcryptprimitives.dll for Wine 8, which lacks it: the Go runtime (1.24
   and later) refuses to start on Windows without ProcessPrng. Windows 10
   and 11 ship the real one; this forwards to RtlGenRandom, advapi32's
   SystemFunction036, which Wine has. Used by .ci/wine/setup.sh only. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}

// The workgroup prefix scan of the renderer's one-workgroup passes (live_scan, radix_scan):
// 256 invocations, each with the sum of its stretch; Hillis-Steele over shared memory (8
// steps, each between barriers). Call it from main in uniform control flow, as barrier()
// asks. kzScanPartial[255] holds the total afterwards.
shared uint kzScanPartial[256];

// The sum of the values of invocations 0 .. t - 1 (exclusive), `value` being invocation t's.
uint kzWorkgroupScan(uint t, uint value) {
    kzScanPartial[t] = value;
    barrier();
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = t >= offset ? kzScanPartial[t - offset] : 0u;
        barrier();
        kzScanPartial[t] += add;
        barrier();
    }
    return t > 0u ? kzScanPartial[t - 1u] : 0u;
}

// The shape of a live list (docs/rendering.md, "Live list"): a count, three pad words, then
// the pool slots of the live particles. The renderer's compaction writes it in ascending
// slot order; a sort writes the same shape in draw order.
#define KZ_BINDING_LIVE   8
#define KZ_BINDING_ORDER  9
#define KZ_BINDING_KEYS   10
#define KZ_BINDING_ARGS   11
#define KZ_BINDING_GROUPS 12
#define KZ_BINDING_PARTICLE_LIGHTS 13

#define KZ_LIST_HEADER 4u   // words before slots[0]

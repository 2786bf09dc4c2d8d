// The kill passes' scratch: one word per workgroup of the pool dispatch. pass_kill_count
// writes each group's deaths, pass_kill_scan turns them into each group's first place on
// the free stack, pass_kill pushes there. Three passes instead of one atomicAdd per death
// so that the freed slots land on the stack in slot order on any GPU: which slot a new
// particle takes (and so the draw order) does not depend on the order invocations ran.
layout(std430, binding = BINDING_KILL_GROUPS) buffer KillGroupBlock { uint killGroups[]; };

// Scratch of the order-keeping passes: one word per workgroup of the pool dispatch. A pass
// writes each group's count, Particles/pass_group_scan.glsl turns the counts into each
// group's first index, a last pass writes there by rank within the group.
//   kill stage: deaths per group -> free-stack places (pass_kill_count, pass_kill);
//   events stage: records per group -> Event Buffer places (main_events, pass_events_order).
// Several passes instead of one atomicAdd per item so that the order comes out the same on
// any GPU: freed slots go on the stack in slot order (which slot a new particle takes, and
// so the draw order, does not depend on scheduling), and event records are in slot order
// (so the children a subemitter makes of them get the same serials and slots every run).
// Layout: killGroups[g] for each of the G groups, then (kill stage) two words per group,
// the 64-bit mask of its dying slots, at killGroups[G + 2g] and [G + 2g + 1], then (events
// stage) the indirect dispatch arguments of pass_events_order at [3G .. 3G + 2]. Every pass
// writes the words it reads, so from the reset pass to the integration the same buffer
// holds the damping rates, one float per slot (Particles/common.glsl, DampingBlock).
layout(std430, binding = BINDING_KILL_GROUPS) buffer KillGroupBlock { uint killGroups[]; };

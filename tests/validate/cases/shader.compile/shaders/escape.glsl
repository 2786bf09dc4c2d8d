// An include that climbs out of the project folder: refused, never read.
#include "../../../../../../../../../../../etc/passwd"
void affectParticle(uint index) {}

float b() { return 2.0; }

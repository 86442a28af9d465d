// A Wasm module from C (clang --target=wasm32, assembled by ModulesConformanceTest): a bump
// allocator that grows linear memory from inside Wasm, and FNV-1a over bytes JavaScript wrote.
extern unsigned char __heap_base;
static unsigned char *bump = 0;

__attribute__((export_name("alloc"))) unsigned char *alloc(unsigned n) {
  if (!bump) bump = &__heap_base;
  unsigned char *p = bump;
  bump += (n + 7) & ~7u;
  unsigned need = (unsigned) (bump - (unsigned char *) 0);
  unsigned have = __builtin_wasm_memory_size(0) * 65536u;
  if (need > have) __builtin_wasm_memory_grow(0, (need - have + 65535u) / 65536u);
  return p;
}

__attribute__((export_name("fnv1a"))) unsigned fnv1a(const unsigned char *p, unsigned n) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < n; i++) {
    h ^= p[i];
    h *= 16777619u;
  }
  return h;
}

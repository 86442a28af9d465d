;; The WasmModes benchmark (bench/wasm/run.sh): calls (recursive fib) and loads (FNV-1a over linear memory).
(module
  (memory (export "memory") 17)
  (func $fib (export "fib") (param i32) (result i32)
    local.get 0 i32.const 2 i32.lt_s
    if (result i32)
      local.get 0
    else
      local.get 0 i32.const 1 i32.sub call $fib
      local.get 0 i32.const 2 i32.sub call $fib
      i32.add
    end)
  (func (export "fnv") (param $n i32) (result i32) (local $i i32) (local $h i32)
    i32.const 2166136261 local.set $h
    (block
      (loop
        local.get $i local.get $n i32.ge_u br_if 1
        local.get $h local.get $i i32.load8_u i32.xor i32.const 16777619 i32.mul local.set $h
        local.get $i i32.const 1 i32.add local.set $i
        br 0))
    local.get $h))

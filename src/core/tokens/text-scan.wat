;; Byte scans of ASCII text, 16 bytes at a time (WebAssembly SIMD), for the measurements that
;; read every character of a large transcript. The caller (`scan-ascii-text.ts`) encodes a string
;; into this module's memory with `TextEncoder.encodeInto` and only uses a result when every
;; character was ASCII (one byte each), so byte offsets are character offsets.
;;
;; Assembled by `npm run build:wasm` (wabt) into `text-scan-module.ts`; a unit test checks that the
;; committed bytes are this file's.
(module
  (memory (export "memory") 1)

  ;; Results of `repr_scan`, read by the caller after the call.
  (global $escapes (export "escapes") (mut i32) (i32.const 0))
  (global $single_quotes (export "single_quotes") (mut i32) (i32.const 0))
  (global $double_quotes (export "double_quotes") (mut i32) (i32.const 0))

  ;; Sum of the four 32-bit lanes.
  (func $sum_lanes (param $v v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $v)) (i32x4.extract_lane 1 (local.get $v)))
      (i32.add (i32x4.extract_lane 2 (local.get $v)) (i32x4.extract_lane 3 (local.get $v)))))

  ;; Widens a vector of 16 byte counters (each at most 255) into four 32-bit sums.
  (func $widen (param $v v128) (result v128)
    (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $v))))

  ;; What Python's repr() adds to the bytes [$ptr, $ptr + $len): one escape character for each
  ;; backslash, tab, newline and carriage return (`$escapes`), and the quote counts that decide
  ;; the quoting (`$single_quotes`, `$double_quotes`). Returns 1 when a byte needs the exact
  ;; character-by-character path instead: any other control character, DEL, or a byte of a
  ;; non-ASCII character. The counts are then incomplete and must not be used.
  (func (export "repr_scan") (param $ptr i32) (param $len i32) (result i32)
    (local $end i32)
    (local $rounds i32)
    (local $v v128)
    (local $whitespace v128)
    (local $backslash v128)
    (local $odd v128)
    (local $round_escapes v128)
    (local $round_single v128)
    (local $round_double v128)
    (local $total_escapes v128)
    (local $total_single v128)
    (local $total_double v128)
    (local $byte i32)
    (local $escape_count i32)
    (local $single_count i32)
    (local $double_count i32)
    (local.set $end (i32.add (local.get $ptr) (i32.and (local.get $len) (i32.const -16))))
    (block $blocks_done
      (loop $rounds_loop
        (br_if $blocks_done (i32.ge_u (local.get $ptr) (local.get $end)))
        ;; Byte counters overflow after 255 blocks: count a round of at most 255, then widen.
        (local.set $rounds (i32.const 0))
        (local.set $round_escapes (v128.const i64x2 0 0))
        (local.set $round_single (v128.const i64x2 0 0))
        (local.set $round_double (v128.const i64x2 0 0))
        (block $round_done
          (loop $blocks_loop
            (br_if $round_done (i32.ge_u (local.get $ptr) (local.get $end)))
            (br_if $round_done (i32.eq (local.get $rounds) (i32.const 255)))
            (local.set $v (v128.load (local.get $ptr)))
            (local.set $whitespace
              (v128.or
                (v128.or
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0a)))
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0d))))
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x09)))))
            (local.set $backslash (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))
            ;; Controls other than tab, newline and carriage return; DEL and above.
            (local.set $odd
              (v128.or
                (local.get $odd)
                (v128.or
                  (v128.andnot
                    (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))
                    (local.get $whitespace))
                  (i8x16.gt_u (local.get $v) (i8x16.splat (i32.const 0x7e))))))
            ;; A true lane is all ones (-1): subtracting it counts one.
            (local.set $round_escapes
              (i8x16.sub
                (local.get $round_escapes)
                (v128.or (local.get $whitespace) (local.get $backslash))))
            (local.set $round_single
              (i8x16.sub
                (local.get $round_single)
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x27)))))
            (local.set $round_double
              (i8x16.sub
                (local.get $round_double)
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))))
            (local.set $ptr (i32.add (local.get $ptr) (i32.const 16)))
            (local.set $rounds (i32.add (local.get $rounds) (i32.const 1)))
            (br $blocks_loop)))
        (local.set $total_escapes
          (i32x4.add (local.get $total_escapes) (call $widen (local.get $round_escapes))))
        (local.set $total_single
          (i32x4.add (local.get $total_single) (call $widen (local.get $round_single))))
        (local.set $total_double
          (i32x4.add (local.get $total_double) (call $widen (local.get $round_double))))
        (br $rounds_loop)))
    (local.set $escape_count (call $sum_lanes (local.get $total_escapes)))
    (local.set $single_count (call $sum_lanes (local.get $total_single)))
    (local.set $double_count (call $sum_lanes (local.get $total_double)))
    ;; The last len % 16 bytes, one at a time.
    (local.set $end (i32.add (local.get $end) (i32.and (local.get $len) (i32.const 15))))
    (block $tail_done
      (loop $tail_loop
        (br_if $tail_done (i32.ge_u (local.get $ptr) (local.get $end)))
        (local.set $byte (i32.load8_u (local.get $ptr)))
        (if
          (i32.or
            (i32.or (i32.eq (local.get $byte) (i32.const 0x5c)) (i32.eq (local.get $byte) (i32.const 0x0a)))
            (i32.or (i32.eq (local.get $byte) (i32.const 0x0d)) (i32.eq (local.get $byte) (i32.const 0x09))))
          (then (local.set $escape_count (i32.add (local.get $escape_count) (i32.const 1))))
          (else
            (if
              (i32.or (i32.lt_u (local.get $byte) (i32.const 0x20)) (i32.gt_u (local.get $byte) (i32.const 0x7e)))
              (then (local.set $odd (v128.const i32x4 -1 -1 -1 -1))))))
        (if (i32.eq (local.get $byte) (i32.const 0x27))
          (then (local.set $single_count (i32.add (local.get $single_count) (i32.const 1)))))
        (if (i32.eq (local.get $byte) (i32.const 0x22))
          (then (local.set $double_count (i32.add (local.get $double_count) (i32.const 1)))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 1)))
        (br $tail_loop)))
    (global.set $escapes (local.get $escape_count))
    (global.set $single_quotes (local.get $single_count))
    (global.set $double_quotes (local.get $double_count))
    (v128.any_true (local.get $odd)))

  ;; Where `word_candidates` stopped: the position after its last candidate when it filled the
  ;; output, else the end of the text.
  (global $resume_at (export "resume_at") (mut i32) (i32.const 0))

  ;; Word characters of the survival scan, by byte: 1 for an ASCII letter, digit or underscore.
  ;; The caller keeps memory [256, 384) for this table.
  (data (i32.const 256) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\01\01\01\01\01\01\01\01\01\00\00\00\00\00\00\00\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\00\00\00\00\01\00\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\00\00\00\00\00")

  ;; The words of the bytes [$ptr + $from, $ptr + $len) as `scanPiece` in find-surviving-facts.ts
  ;; reads them: a word is a run of word characters, hashed as h = (h * 31 + c) & 0x3fffffff with
  ;; A-Z folded to a-z; a backslash before n, t, r, ", \ or / is skipped with that character. Each
  ;; word whose hash's low 16 bits have a non-zero byte in the 65,536-byte filter at $filter is
  ;; written at $out as three i32: start, end (offsets from $ptr) and hash. Returns how many were
  ;; written; after $cap of them it stops, with `resume_at` where to go on.
  (func (export "word_candidates")
    (param $ptr i32) (param $len i32) (param $from i32) (param $filter i32) (param $out i32) (param $cap i32)
    (result i32)
    (local $i i32)
    (local $byte i32)
    (local $start i32)
    (local $hash i32)
    (local $count i32)
    (local $next i32)
    (local.set $i (local.get $from))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $byte (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
        (if (i32.load8_u offset=256 (local.get $byte))
          (then
            (local.set $start (local.get $i))
            (local.set $hash (i32.const 0))
            (block $word_done
              (loop $word
                (local.set $hash
                  (i32.and
                    (i32.add
                      (i32.mul (local.get $hash) (i32.const 31))
                      (select
                        (i32.add (local.get $byte) (i32.const 32))
                        (local.get $byte)
                        (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x41)) (i32.const 26))))
                    (i32.const 0x3fffffff)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br_if $word_done (i32.ge_u (local.get $i) (local.get $len)))
                (local.set $byte (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
                (br_if $word (i32.load8_u offset=256 (local.get $byte)))))
            (if (i32.load8_u (i32.add (local.get $filter) (i32.and (local.get $hash) (i32.const 0xffff))))
              (then
                (i32.store (local.get $out) (local.get $start))
                (i32.store offset=4 (local.get $out) (local.get $i))
                (i32.store offset=8 (local.get $out) (local.get $hash))
                (local.set $out (i32.add (local.get $out) (i32.const 12)))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))
                (if (i32.eq (local.get $count) (local.get $cap))
                  (then
                    (global.set $resume_at (local.get $i))
                    (return (local.get $count)))))))
          (else
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (if (i32.and
                  (i32.eq (local.get $byte) (i32.const 0x5c))
                  (i32.lt_u (local.get $i) (local.get $len)))
              (then
                (local.set $next (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
                (if (i32.or
                      (i32.or
                        (i32.or (i32.eq (local.get $next) (i32.const 0x6e)) (i32.eq (local.get $next) (i32.const 0x74)))
                        (i32.or (i32.eq (local.get $next) (i32.const 0x72)) (i32.eq (local.get $next) (i32.const 0x22))))
                      (i32.or (i32.eq (local.get $next) (i32.const 0x5c)) (i32.eq (local.get $next) (i32.const 0x2f))))
                  (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))))
        (br $scan)))
    (global.set $resume_at (local.get $len))
    (local.get $count))
)

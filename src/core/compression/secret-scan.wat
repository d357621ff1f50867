;; Where a secret-redaction pattern could match in UTF-8 text: the secret screen's anchor
;; characters (`_ - = : A S B J`, see could-contain-secret.ts) found 16 bytes at a time
;; (WebAssembly SIMD), each kept only when the bytes around it pass a necessary condition of the
;; screen's alternatives at that character. A kept anchor is a candidate, checked exactly by the
;; caller (the screen's own regex, sticky, at that index); one left out can match no alternative.
;;
;; The caller (`secret-anchor-scan.ts`) encodes texts into this module's memory with
;; `TextEncoder.encodeInto` (UTF-8), one after another with a zero byte between them and zero
;; bytes before the first and after the last: a zero byte is no anchor, no whitespace, no digit
;; and in no pair below, so no condition reads past a text into its neighbour as anything that
;; passes. Every byte of a multi-byte character is 0x80 or above,
;; outside every anchor, class and pair, as the conditions need (the screen's regex has no class
;; that takes a non-ASCII character where a condition reads). Candidates are reported as UTF-16
;; indices into the text: the byte offset, less the UTF-8 continuation bytes before it, plus one
;; for each four-byte character before it (two UTF-16 code units).
;;
;; The conditions read three tables the caller fills from the screen's own word lists:
;; - pairs: a 16-bit entry per pair of bytes, at $table + 2 * (first | second << 8), its bits
;;   saying what the pair can be: 1 `_` stem end, 2 `-` stem end or "EY" of `PRIVATE KEY-`,
;;   4 "ey" before `J`, 8 after `A` ("Iz", "KI", "AA"), 16 after `S` ("G."), 32 after `B` ("ea"),
;;   64 after `:` ("//"), 128 "on" before `:` (`authorization:`, any case), 256 a JSON secret
;;   field's last two letters before its closing quote, 512 a query parameter's last two letters
;;   before `=` (any case), 1024 two name characters `[A-Z0-9_]` (a secret assignment's name),
;;   2048 two digits, 16384 the last two letters of a secret name word (KEY, TOKEN, ...);
;; - stems, right after the pair table: a byte per 16-bit hash of a run of bytes (`h = (h * 31 +
;;   byte) & 0xffff`), bit 1 when a `_` stem hashes there, 2 a `-` stem; and, hashed with 0x20
;;   set in each byte (either case of a letter alike), 4 a JSON secret field's name, 8 a query
;;   parameter's name;
;; - anchor masks, right after the stem table: an i32 per byte, the pair bits that let an anchor
;;   of that byte through, before it (low 16 bits) and after it (high 16 bits), so most anchors
;;   are turned down by two table reads, without a call. Two more pair bits serve them: 4096 the
;;   second byte ends a whitespace character, 8192 the second byte is `"`.
;;
;; The module keeps one table of its own, at the start of its memory, built when it is
;; instantiated (`$fill_lanes`): the caller's tables and areas start after `LANES_BYTES`.
;;
;; Assembled by `npm run build:wasm` (wabt) into `secret-scan-module.ts`; a unit test checks that
;; the committed bytes are this file's.
(module
  (memory (export "memory") 4)

  ;; Per byte value m, the bit positions set in m as eight 16-bit lanes (the first popcnt(m)
  ;; of them meaningful): at 16 * m for the low half of a block's anchor mask, and the same
  ;; positions plus 8 at 4,096 + 16 * m for its high half. 8,192 bytes at address 0.
  (global $lanes i32 (i32.const 0))
  (func $fill_lanes
    (local $m i32)
    (local $bit i32)
    (local $entry i32)
    (loop $values
      (local.set $entry (i32.add (global.get $lanes) (i32.shl (local.get $m) (i32.const 4))))
      (local.set $bit (i32.const 0))
      (loop $bits
        (if (i32.and (local.get $m) (i32.shl (i32.const 1) (local.get $bit)))
          (then
            (i32.store16 (local.get $entry) (local.get $bit))
            (i32.store16 offset=4096 (local.get $entry) (i32.add (local.get $bit) (i32.const 8)))
            (local.set $entry (i32.add (local.get $entry) (i32.const 2)))))
        (local.set $bit (i32.add (local.get $bit) (i32.const 1)))
        (br_if $bits (i32.lt_u (local.get $bit) (i32.const 8))))
      (local.set $m (i32.add (local.get $m) (i32.const 1)))
      (br_if $values (i32.lt_u (local.get $m) (i32.const 256)))))
  (start $fill_lanes)

  ;; Where `secret_candidates` stopped: after its last candidate when it filled the output, else
  ;; the end of the text; and the UTF-16 index less the byte offset there, to pass back with it.
  (global $resume_at (export "resume_at") (mut i32) (i32.const 0))
  (global $resume_shift (export "resume_shift") (mut i32) (i32.const 0))

  (global $pairs (mut i32) (i32.const 0))
  (global $stems (mut i32) (i32.const 0))
  (global $masks (mut i32) (i32.const 0))
  ;; Past the zero bytes after the last text: where a forward look stops.
  (global $text_end (mut i32) (i32.const 0))

  ;; A key character of the vendor-key patterns: `[A-Za-z0-9_-]`.
  (func $is_key (param $byte i32) (result i32)
    (i32.or
      (i32.or
        (i32.lt_u (i32.sub (i32.or (local.get $byte) (i32.const 0x20)) (i32.const 0x61)) (i32.const 26))
        (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x30)) (i32.const 10)))
      (i32.or (i32.eq (local.get $byte) (i32.const 0x5f)) (i32.eq (local.get $byte) (i32.const 0x2d)))))

  ;; The stem bits of the run of key characters that ends at $end - 1 (`(?<![A-Za-z0-9_-])stem`
  ;; right before the anchor): 0 when the run is empty or longer than any stem (6).
  (func $stem_bits (param $end i32) (result i32)
    (local $start i32)
    (local $hash i32)
    (local.set $start (local.get $end))
    (block $run_done
      (loop $back
        (br_if $run_done (i32.eqz (call $is_key (i32.load8_u (i32.sub (local.get $start) (i32.const 1))))))
        (local.set $start (i32.sub (local.get $start) (i32.const 1)))
        (br_if $back (i32.le_u (i32.sub (local.get $end) (local.get $start)) (i32.const 6)))
        (return (i32.const 0))))
    (if (i32.eq (local.get $start) (local.get $end)) (then (return (i32.const 0))))
    (block $hash_done
      (loop $forward
        (br_if $hash_done (i32.ge_u (local.get $start) (local.get $end)))
        (local.set $hash
          (i32.and
            (i32.add (i32.mul (local.get $hash) (i32.const 31)) (i32.load8_u (local.get $start)))
            (i32.const 0xffff)))
        (local.set $start (i32.add (local.get $start) (i32.const 1)))
        (br $forward)))
    (i32.load8_u (i32.add (global.get $stems) (local.get $hash))))

  ;; The last byte at or before $at that does not end a whitespace character (JavaScript's `\s`:
  ;; tab, newline, vertical tab, form feed, carriage return, space, U+00A0, U+1680,
  ;; U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF, read backwards in UTF-8).
  ;; A zero byte stops it.
  (func $skip_space_back (param $at i32) (result i32)
    (local $byte i32)
    (local $three i32)
    (block $done
      (loop $back
        (local.set $byte (i32.load8_u (local.get $at)))
        (if
          (i32.or
            (i32.eq (local.get $byte) (i32.const 0x20))
            (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x09)) (i32.const 5)))
          (then
            (local.set $at (i32.sub (local.get $at) (i32.const 1)))
            (br $back)))
        (br_if $done (i32.lt_u (local.get $byte) (i32.const 0x80)))
        ;; U+00A0: C2 A0.
        (if (i32.eq (i32.load16_u (i32.sub (local.get $at) (i32.const 1))) (i32.const 0xa0c2))
          (then
            (local.set $at (i32.sub (local.get $at) (i32.const 2)))
            (br $back)))
        ;; The three bytes ending at $at, the first in the low byte.
        (local.set $three
          (i32.and (i32.load (i32.sub (local.get $at) (i32.const 2))) (i32.const 0xffffff)))
        (br_if $done
          (i32.eqz
            (i32.or
              (i32.or
                ;; U+2000-U+200A: E2 80 80-8A; U+2028, U+2029, U+202F: E2 80 A8, A9, AF.
                (i32.and
                  (i32.eq (i32.and (local.get $three) (i32.const 0xffff)) (i32.const 0x80e2))
                  (i32.or
                    (i32.le_u (i32.sub (local.get $byte) (i32.const 0x80)) (i32.const 0x0a))
                    (i32.or
                      (i32.le_u (i32.sub (local.get $byte) (i32.const 0xa8)) (i32.const 1))
                      (i32.eq (local.get $byte) (i32.const 0xaf)))))
                ;; U+1680: E1 9A 80; U+205F: E2 81 9F.
                (i32.or
                  (i32.eq (local.get $three) (i32.const 0x809ae1))
                  (i32.eq (local.get $three) (i32.const 0x9f81e2))))
              ;; U+3000: E3 80 80; U+FEFF: EF BB BF.
              (i32.or
                (i32.eq (local.get $three) (i32.const 0x8080e3))
                (i32.eq (local.get $three) (i32.const 0xbfbbef))))))
        (local.set $at (i32.sub (local.get $at) (i32.const 3)))
        (br $back)))
    (local.get $at))

  ;; Eight digits end at $end - 1 (a bot token's `\d{8}:`).
  (func $eight_digits_before (param $end i32) (result i32)
    (local $at i32)
    (local.set $at (i32.sub (local.get $end) (i32.const 8)))
    (block $no
      (loop $each
        (br_if $no
          (i32.ge_u (i32.sub (i32.load8_u (local.get $at)) (i32.const 0x30)) (i32.const 10)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br_if $each (i32.lt_u (local.get $at) (local.get $end)))
        (return (i32.const 1))))
    (i32.const 0))

  ;; A letter, either case.
  (func $is_letter (param $byte i32) (result i32)
    (i32.lt_u (i32.sub (i32.or (local.get $byte) (i32.const 0x20)) (i32.const 0x61)) (i32.const 26)))

  ;; `h = (h * 31 + (byte | 0x20)) & 0xffff` over [$start, $end): the stem table's hash of a word
  ;; folded to lower case (`|0x20` leaves `-` and digits as they are, and makes `_` 0x7f).
  (func $folded_hash (param $start i32) (param $end i32) (result i32)
    (local $hash i32)
    (block $done
      (loop $forward
        (br_if $done (i32.ge_u (local.get $start) (local.get $end)))
        (local.set $hash
          (i32.and
            (i32.add
              (i32.mul (local.get $hash) (i32.const 31))
              (i32.or (i32.load8_u (local.get $start)) (i32.const 0x20)))
            (i32.const 0xffff)))
        (local.set $start (i32.add (local.get $start) (i32.const 1)))
        (br $forward)))
    (local.get $hash))

  ;; A query parameter's name right before $end, after `?` or `&` (`[?&]name=`): the run of
  ;; `[A-Za-z_-]` there, no longer than the longest name (16), hashes to a name (stem bit 8).
  (func $query_name_before (param $end i32) (result i32)
    (local $start i32)
    (local $byte i32)
    (local.set $start (local.get $end))
    (block $run_done
      (loop $back
        (local.set $byte (i32.load8_u (i32.sub (local.get $start) (i32.const 1))))
        (br_if $run_done
          (i32.eqz
            (i32.or
              (call $is_letter (local.get $byte))
              (i32.or (i32.eq (local.get $byte) (i32.const 0x5f)) (i32.eq (local.get $byte) (i32.const 0x2d))))))
        (local.set $start (i32.sub (local.get $start) (i32.const 1)))
        (br_if $back (i32.le_u (i32.sub (local.get $end) (local.get $start)) (i32.const 16)))
        (return (i32.const 0))))
    (local.set $byte (i32.load8_u (i32.sub (local.get $start) (i32.const 1))))
    (if (i32.eqz (i32.or (i32.eq (local.get $byte) (i32.const 0x3f)) (i32.eq (local.get $byte) (i32.const 0x26))))
      (then (return (i32.const 0))))
    (i32.ne
      (i32.and
        (i32.load8_u (i32.add (global.get $stems) (call $folded_hash (local.get $start) (local.get $end))))
        (i32.const 8))
      (i32.const 0)))

  ;; A JSON secret field's name inside the quotes that close at $quote (`"name"`): the run of
  ;; `[A-Za-z_]` before it, no longer than the longest name (13), opened by `"`, hashes to a field
  ;; name (stem bit 4).
  (func $field_name_before (param $quote i32) (result i32)
    (local $start i32)
    (local $byte i32)
    (local.set $start (local.get $quote))
    (block $run_done
      (loop $back
        (local.set $byte (i32.load8_u (i32.sub (local.get $start) (i32.const 1))))
        (br_if $run_done
          (i32.eqz (i32.or (call $is_letter (local.get $byte)) (i32.eq (local.get $byte) (i32.const 0x5f)))))
        (local.set $start (i32.sub (local.get $start) (i32.const 1)))
        (br_if $back (i32.le_u (i32.sub (local.get $quote) (local.get $start)) (i32.const 13)))
        (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (i32.sub (local.get $start) (i32.const 1))) (i32.const 0x22))
      (then (return (i32.const 0))))
    (i32.ne
      (i32.and
        (i32.load8_u (i32.add (global.get $stems) (call $folded_hash (local.get $start) (local.get $quote))))
        (i32.const 4))
      (i32.const 0)))

  ;; `authorization`, any case, ends at $end - 1 (its bytes with 0x20 set, as a letter's lower case).
  (func $authorization_before (param $end i32) (result i32)
    (i32.and
      (i64.eq
        (i64.or (i64.load (i32.sub (local.get $end) (i32.const 13))) (i64.const 0x2020202020202020))
        ;; "authoriz"
        (i64.const 0x7a69726f68747561))
      (i32.eq
        (i32.or (i32.load (i32.sub (local.get $end) (i32.const 5))) (i32.const 0x20202020))
        ;; "atio"
        (i32.const 0x6f697461))))

  ;; A secret name word (KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH) ends in the run
  ;; of name characters `[A-Z0-9_]` that ends at $end - 1, with at most 50 of them after it: some
  ;; pair of the run within reach has the pair bit of a word's last two letters (16384).
  (func $name_word_before (param $end i32) (result i32)
    (local $word_end i32)
    (local $byte i32)
    (local.set $word_end (local.get $end))
    (loop $back
      (if
        (i32.and
          (i32.load16_u
            (i32.add
              (global.get $pairs)
              (i32.shl (i32.load16_u (i32.sub (local.get $word_end) (i32.const 2))) (i32.const 1))))
          (i32.const 16384))
        (then (return (i32.const 1))))
      ;; The word may end one earlier while what follows it is still name characters, 50 at most.
      (local.set $byte (i32.load8_u (i32.sub (local.get $word_end) (i32.const 1))))
      (br_if $back
        (i32.and
          (i32.or
            (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x41)) (i32.const 26))
            (i32.or
              (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x30)) (i32.const 10))
              (i32.eq (local.get $byte) (i32.const 0x5f))))
          (i32.le_u
            (i32.sub (local.get $end) (local.tee $word_end (i32.sub (local.get $word_end) (i32.const 1))))
            (i32.const 50)))))
    (i32.const 0))

  ;; `//`, then an `@` before any whitespace (`:(?=\/\/[^\s@]*@)`), after the `://` at $at.
  ;; Only ASCII whitespace ends the look: going on past a multi-byte character that is whitespace
  ;; (or past a text's end, into the next) can only keep an anchor the regex then turns down. A
  ;; look longer than 512 bytes keeps the anchor; the zero bytes after the last text end it.
  (func $at_sign_after (param $at i32) (result i32)
    (local $byte i32)
    (local $stop i32)
    (local.set $at (i32.add (local.get $at) (i32.const 3)))
    (local.set $stop (i32.add (local.get $at) (i32.const 512)))
    (if (i32.gt_u (local.get $stop) (global.get $text_end)) (then (local.set $stop (global.get $text_end))))
    (block $no
      (loop $forward
        ;; A look cut short by its limit, not by the end of the texts, keeps the anchor.
        (if (i32.ge_u (local.get $at) (local.get $stop))
          (then (return (i32.lt_u (local.get $stop) (global.get $text_end)))))
        (local.set $byte (i32.load8_u (local.get $at)))
        (if (i32.eq (local.get $byte) (i32.const 0x40)) (then (return (i32.const 1))))
        (br_if $no
          (i32.or
            (i32.eq (local.get $byte) (i32.const 0x20))
            (i32.lt_u (i32.sub (local.get $byte) (i32.const 0x09)) (i32.const 5))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $forward)))
    (i32.const 0))

  ;; Whether the anchor $byte at $at passes the necessary condition of an alternative there.
  (func $candidate (param $byte i32) (param $at i32) (result i32)
    (local $pair i32)
    (local $back i32)
    ;; `_`: a `_` stem right before, with no key character before the stem.
    (if (i32.eq (local.get $byte) (i32.const 0x5f))
      (then
        (if (i32.eqz (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 1)))) (i32.const 1)))
          (then (return (i32.const 0))))
        (return (i32.and (call $stem_bits (local.get $at)) (i32.const 1)))))
    ;; `:`: `://`, `authorization:`, `\d{8}:`, or `"field"\s*:`.
    (if (i32.eq (local.get $byte) (i32.const 0x3a))
      (then
        (if (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.add (local.get $at) (i32.const 1))) (i32.const 1)))) (i32.const 64))
          (then (if (call $at_sign_after (local.get $at)) (then (return (i32.const 1))))))
        (local.set $pair (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 1)))))
        (if (i32.and (local.get $pair) (i32.const 128))
          (then (if (call $authorization_before (local.get $at)) (then (return (i32.const 1))))))
        (if (i32.and (local.get $pair) (i32.const 2048))
          (then (if (call $eight_digits_before (local.get $at)) (then (return (i32.const 1))))))
        (local.set $back (call $skip_space_back (i32.sub (local.get $at) (i32.const 1))))
        (if (i32.ne (i32.load8_u (local.get $back)) (i32.const 0x22)) (then (return (i32.const 0))))
        (return (call $field_name_before (local.get $back)))))
    ;; `-`: a `-` stem right before (no key character before it), or `PRIVATE KEY-`.
    (if (i32.eq (local.get $byte) (i32.const 0x2d))
      (then
        (local.set $pair (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 1)))))
        (if (i32.eqz (i32.and (local.get $pair) (i32.const 2))) (then (return (i32.const 0))))
        ;; "EY" of `PRIVATE KEY-`: the run before is longer than a stem, so no stem check.
        (if (i32.eq (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 0x5945))
          (then (return (i32.const 1))))
        (return (i32.ne (i32.and (call $stem_bits (local.get $at)) (i32.const 2)) (i32.const 0)))))
    ;; `=`: `[?&]param=`, or a secret name, then `\s*=`.
    (if (i32.eq (local.get $byte) (i32.const 0x3d))
      (then
        (if (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 1)))) (i32.const 512))
          (then (if (call $query_name_before (local.get $at)) (then (return (i32.const 1))))))
        (local.set $back (call $skip_space_back (i32.sub (local.get $at) (i32.const 1))))
        (if (i32.eqz (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.sub (local.get $back) (i32.const 1))) (i32.const 1)))) (i32.const 1024)))
          (then (return (i32.const 0))))
        (return (call $name_word_before (i32.add (local.get $back) (i32.const 1))))))
    ;; `AIza`, `AKIA`, `gAAAA`; `SG.`; `Bearer`: the two bytes after.
    (if (i32.eq (local.get $byte) (i32.const 0x41))
      (then
        (return
          (i32.ne
            (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.add (local.get $at) (i32.const 1))) (i32.const 1)))) (i32.const 8))
            (i32.const 0)))))
    (if (i32.eq (local.get $byte) (i32.const 0x53))
      (then
        (return
          (i32.ne
            (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.add (local.get $at) (i32.const 1))) (i32.const 1)))) (i32.const 16))
            (i32.const 0)))))
    (if (i32.eq (local.get $byte) (i32.const 0x42))
      (then
        (return
          (i32.ne
            (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.add (local.get $at) (i32.const 1))) (i32.const 1)))) (i32.const 32))
            (i32.const 0)))))
    ;; `J` of a JWT's `eyJ`.
    (i32.ne
      (i32.and (i32.load16_u (i32.add (global.get $pairs) (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 1)))) (i32.const 4))
      (i32.const 0)))

  ;; The candidates among the bytes [$ptr + $from, $ptr + $len), written at $out as i32 UTF-16
  ;; indices into the text, in order; $shift is the UTF-16 index less the byte offset at $from
  ;; (0 from the start). The tables are at $table (pairs, 131,072 bytes; stems, 65,536; anchor
  ;; masks, 1,024), and $scratch holds 24,608 bytes this function may overwrite. At least 16 zero
  ;; bytes must follow the text, and 16 precede $ptr. Returns how many were written, and leaves
  ;; `resume_at` at $len when done; it stops early, with `resume_at` and `resume_shift` where to go
  ;; on, before a chunk's candidates (up to 4,112) could overflow $cap.
  ;;
  ;; The text goes in chunks of up to 4,096 blocks of 16 bytes, in two passes each, so that no
  ;; branch depends on how many anchors a block holds (a block has 0 to 16, and one branch per
  ;; anchor out of its block mispredicted about as often as not: ~60% of the scan's time on the
  ;; bench session). Pass 1 lists the anchors' offsets in the chunk, 16 bits each, without a branch
  ;; per anchor: each half of a block's anchor mask picks the bit positions it holds from `$lanes`,
  ;; the block's offset is added to all eight at once and they are stored together, and the list
  ;; grows by the half's anchor count (two stores a block, where one store per possible anchor
  ;; cost the scan ~20%). Pass 2 reads the list and checks each anchor, where the one branch, the
  ;; pair test, is nearly always "no".
  (func (export "secret_candidates")
    (param $ptr i32) (param $len i32) (param $from i32) (param $shift i32) (param $table i32)
    (param $out i32) (param $cap i32) (param $scratch i32)
    (result i32)
    (local $block i32)
    (local $end i32)
    (local $chunk i32)
    (local $chunk_end i32)
    (local $v v128)
    (local $mask i32)
    (local $lane i32)
    (local $below i32)
    (local $continuations i32)
    (local $four_byte_leads i32)
    (local $at i32)
    (local $byte i32)
    (local $through i32)
    ;; The pair bits that let the anchor through, before and after it.
    (local $passed i32)
    (local $index i32)
    (local $count i32)
    ;; The anchor offsets of a chunk, from its start (up to 4,096 + 16, and 16 more written past the
    ;; last), then the UTF-16 shift at the start of each of its blocks.
    (local $offsets i32)
    (local $offsets_full i32)
    (local $shifts i32)
    (local $write i32)
    (local $read i32)
    ;; The block's offset in the chunk, in each 16-bit lane.
    (local $base v128)
    (local $anchor_block i32)
    ;; Per low nibble, per high nibble: the bits of the anchors with it (`_ : - = A S B J`).
    (local $low_nibbles v128)
    (local $high_nibbles v128)
    (global.set $pairs (local.get $table))
    (global.set $stems (i32.add (local.get $table) (i32.const 131072)))
    (global.set $masks (i32.add (local.get $table) (i32.const 196608)))
    (local.set $low_nibbles (v128.const i8x16 0 16 64 32 0 0 0 0 0 0 130 0 0 12 0 1))
    (local.set $high_nibbles (v128.const i8x16 0 0 4 10 208 33 0 0 0 0 0 0 0 0 0 0))
    (global.set $text_end (i32.add (i32.add (local.get $ptr) (local.get $len)) (i32.const 16)))
    (local.set $offsets (local.get $scratch))
    (local.set $offsets_full (i32.add (local.get $scratch) (i32.const 8192)))
    (local.set $shifts (i32.add (local.get $scratch) (i32.const 8224)))
    (local.set $block (i32.add (local.get $ptr) (local.get $from)))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (block $done
      (loop $chunks
        (br_if $done (i32.ge_u (local.get $block) (local.get $end)))
        (if (i32.gt_u (i32.add (local.get $count) (i32.const 4112)) (local.get $cap))
          (then
            (global.set $resume_at (i32.sub (local.get $block) (local.get $ptr)))
            (global.set $resume_shift (local.get $shift))
            (return (local.get $count))))
        (local.set $chunk (local.get $block))
        (local.set $chunk_end (i32.add (local.get $block) (i32.const 65536)))
        (if (i32.gt_u (local.get $chunk_end) (local.get $end))
          (then (local.set $chunk_end (local.get $end))))
        ;; Pass 1: the offsets of the chunk's anchors, and each block's shift.
        (local.set $write (local.get $offsets))
        (block $listed
          (loop $blocks
            (br_if $listed (i32.ge_u (local.get $block) (local.get $chunk_end)))
            (br_if $listed (i32.ge_u (local.get $write) (local.get $offsets_full)))
            (local.set $v (v128.load (local.get $block)))
            ;; The anchors, by the two nibbles of each byte: each anchor has a bit of its own,
            ;; set in the row of its low nibble and in the column of its high nibble (a byte of
            ;; 0x80 and above has no column), so the two lookups share a bit only at an anchor.
            (local.set $mask
              (i32.xor
                (i8x16.bitmask
                  (i8x16.eq
                    (v128.and
                      (i8x16.swizzle (local.get $low_nibbles) (v128.and (local.get $v) (i8x16.splat (i32.const 0x0f))))
                      (i8x16.swizzle (local.get $high_nibbles) (i8x16.shr_u (local.get $v) (i32.const 4))))
                    (v128.const i32x4 0 0 0 0)))
                (i32.const 0xffff)))
            (i32.store
              (i32.add (local.get $shifts) (i32.shr_u (i32.sub (local.get $block) (local.get $chunk)) (i32.const 2)))
              (local.get $shift))
            ;; Bytes of multi-byte characters (the top bit set) move the UTF-16 index off the offset.
            (if (i8x16.bitmask (local.get $v))
              (then
                (local.set $shift
                  (i32.sub
                    (i32.add
                      (local.get $shift)
                      (i32.popcnt
                        (i8x16.bitmask (i8x16.ge_u (local.get $v) (i8x16.splat (i32.const 0xf0))))))
                    (i32.popcnt
                      (i8x16.bitmask
                        (i8x16.eq
                          (v128.and (local.get $v) (i8x16.splat (i32.const 0xc0)))
                          (i8x16.splat (i32.const 0x80)))))))))
            ;; Eight lanes stored for each half whatever its count; the next store overwrites those
            ;; past it.
            (local.set $base (i16x8.splat (i32.sub (local.get $block) (local.get $chunk))))
            (v128.store (local.get $write)
              (i16x8.add
                (local.get $base)
                (v128.load
                  (i32.add (global.get $lanes) (i32.shl (i32.and (local.get $mask) (i32.const 0xff)) (i32.const 4))))))
            (local.set $write
              (i32.add (local.get $write) (i32.shl (i32.popcnt (i32.and (local.get $mask) (i32.const 0xff))) (i32.const 1))))
            (v128.store (local.get $write)
              (i16x8.add
                (local.get $base)
                (v128.load offset=4096
                  (i32.add (global.get $lanes) (i32.shl (i32.shr_u (local.get $mask) (i32.const 8)) (i32.const 4))))))
            (local.set $write
              (i32.add (local.get $write) (i32.shl (i32.popcnt (i32.shr_u (local.get $mask) (i32.const 8))) (i32.const 1))))
            (local.set $block (i32.add (local.get $block) (i32.const 16)))
            (br $blocks)))
        ;; Pass 2: each listed anchor, most turned down by its neighbours' pair bits without a call.
        (local.set $read (local.get $offsets))
        (block $checked
          (loop $checks
            (br_if $checked (i32.ge_u (local.get $read) (local.get $write)))
            (local.set $at (i32.add (local.get $chunk) (i32.load16_u (local.get $read))))
            (local.set $read (i32.add (local.get $read) (i32.const 2)))
            ;; Bytes past the end are zeros, never anchors: no bound check needed here.
            (local.set $byte (i32.load8_u (local.get $at)))
            (local.set $through
              (i32.load (i32.add (global.get $masks) (i32.shl (local.get $byte) (i32.const 2)))))
            (br_if $checks
              (i32.eqz
                (local.tee $passed
                (i32.or
                  (i32.and
                    (i32.load16_u
                      (i32.add
                        (global.get $pairs)
                        (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 2))) (i32.const 1))))
                    (local.get $through))
                  (i32.and
                    (i32.load16_u
                      (i32.add
                        (global.get $pairs)
                        (i32.shl (i32.load16_u (i32.add (local.get $at) (i32.const 1))) (i32.const 1))))
                    (i32.shr_u (local.get $through) (i32.const 16)))))))
            ;; A `:` let through by its `"` alone (`"name":`, three in five of those that pass on the
            ;; bench session): the two letters before that quote must end a secret field's name.
            (br_if $checks
              (i32.and
                (i32.eq (local.get $passed) (i32.const 8192))
                (i32.eqz
                  (i32.and
                    (i32.load16_u
                      (i32.add
                        (global.get $pairs)
                        (i32.shl (i32.load16_u (i32.sub (local.get $at) (i32.const 3))) (i32.const 1))))
                    (i32.const 256)))))
            (if (call $candidate (local.get $byte) (local.get $at))
              (then
                ;; The UTF-16 index: the shift at the start of the anchor's block, plus what the
                ;; multi-byte characters before it in the block add.
                (local.set $lane (i32.and (i32.sub (local.get $at) (local.get $chunk)) (i32.const 15)))
                (local.set $anchor_block (i32.sub (local.get $at) (local.get $lane)))
                (local.set $v (v128.load (local.get $anchor_block)))
                (local.set $continuations
                  (i8x16.bitmask
                    (i8x16.eq
                      (v128.and (local.get $v) (i8x16.splat (i32.const 0xc0)))
                      (i8x16.splat (i32.const 0x80)))))
                (local.set $four_byte_leads
                  (i8x16.bitmask (i8x16.ge_u (local.get $v) (i8x16.splat (i32.const 0xf0)))))
                (local.set $below (i32.sub (i32.shl (i32.const 1) (local.get $lane)) (i32.const 1)))
                (local.set $index
                  (i32.sub
                    (i32.add
                      (i32.add
                        (i32.sub (local.get $at) (local.get $ptr))
                        (i32.load
                          (i32.add
                            (local.get $shifts)
                            (i32.shr_u (i32.sub (local.get $anchor_block) (local.get $chunk)) (i32.const 2)))))
                      (i32.popcnt (i32.and (local.get $four_byte_leads) (local.get $below))))
                    (i32.popcnt (i32.and (local.get $continuations) (local.get $below)))))
                (i32.store (local.get $out) (local.get $index))
                (local.set $out (i32.add (local.get $out) (i32.const 4)))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))
            (br $checks)))
        (br $chunks)))
    (global.set $resume_at (local.get $len))
    (global.set $resume_shift (local.get $shift))
    (local.get $count))
)

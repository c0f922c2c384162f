#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsim_fuzz::rm_json(data));

#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsim_fuzz::sls_nodes_json(data));

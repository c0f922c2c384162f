#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| fairsim_fuzz::yarn_site_xml(data));

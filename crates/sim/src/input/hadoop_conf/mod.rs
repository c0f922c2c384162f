//! The syntax of Hadoop `<configuration>` values shared by yarn-site.xml, sls-runner.xml and
//! capacity-scheduler.xml: `${name}` substitution ([`expand`]) and the numbers, booleans and
//! resources Hadoop's getters accept ([`values`]).

pub mod expand;
pub mod values;

//! run: -a 'int[4]
//! expect[x]: 1
//! frobnicate

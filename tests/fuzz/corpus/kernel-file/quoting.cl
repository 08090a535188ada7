  //!  run: -D "MSG=\"a b\"" -D 'X=$1' -a int[2]=1,2 -a out:int[2] a\ b	"x\\y"
//! expect: 1, 2,3
//! expect[1]: nan inf -inf
//!expect[2]:
// ! not a directive

use std::collections::HashMap;
use crate::conn::{Conn, Dial};
use super::pool as p;
mod util;

pub struct Pool<T> {
    size: usize,
    items: Vec<T>,
}

impl<T> Pool<T> {
    pub fn new(size: usize) -> Self {
        Pool { size, items: Vec::new() }
    }
}

impl Conn for Pool<u8> {
    fn dial(&self) -> Dial {
        util::dial(self.size)
    }
}

pub trait Check {
    fn check(&self) -> bool;
}

enum State { A, B }

const MAX: usize = 8;

macro_rules! pool {
    () => { Pool::new(0) };
}

fn main() {
    let p = Pool::<u8>::new(4);
    println!("{}", p.size);
}

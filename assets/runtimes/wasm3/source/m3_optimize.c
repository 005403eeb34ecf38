//
//  m3_optimize.c
//
//  Created by Steven Massey on 4/27/19.
//  Copyright © 2019 Steven Massey. All rights reserved.
//

#include "m3_compile.h"
#include "m3_exec.h"


// not currently used

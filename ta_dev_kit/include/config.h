/*
 * IS_ENABLED(CFG_FOO): 1 when CFG_FOO is defined to 1 (the kit passes a
 * setting of y as -DCFG_FOO=1), 0 when it is not defined, in an expression
 * the compiler sees, so that `if (IS_ENABLED(CFG_FOO))` replaces an #ifdef
 * and both branches stay compiled and type-checked.
 *
 * How: pasting the macro's value onto a prefix gives __CFG_ON_1 only for
 * a value of 1; that name expands to a leading argument, which shifts the
 * `1` into the second position the last step picks. Anything else leaves
 * one argument, and the picked one is the 0.
 */
#ifndef CONFIG_H
#define CONFIG_H

#define __CFG_ON_1 ignored,
#define __CFG_PICK_SECOND(ignored, value, ...) value
#define __CFG_PICK(args) __CFG_PICK_SECOND(args 1, 0, 0)
#define __CFG_PASTE(value) __CFG_PICK(__CFG_ON_##value)
#define IS_ENABLED(config_macro) __CFG_PASTE(config_macro)

#endif /* CONFIG_H */

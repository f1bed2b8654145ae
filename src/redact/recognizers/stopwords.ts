// Common English words that end a name or a place phrase (function words, and verbs that follow a name).
export const STOP = new Set(`
a an the and or but so if then than that this these those there here where when what which who whom whose why how
i me my mine we us our you your yours he him his she her hers it its it's they them their is am are was were be been
being have has had having do does did done will would shall should can could may might must not no yes yeah ok okay
of to in on at by for with from about as into onto over under up down out off again just also only very too
please thanks thank hi hello hey bye calling speaking here call called calls speak talk talking say said tell told
want wanted need needed like get got go going gone come came know think see look make made take took give gave
i'm i've i'll i'd you're we're they're he's she's that's there's what's let's don't can't won't didn't doesn't isn't
sure right well now today tomorrow yesterday just um uh er ah hmm oh mm like sir madam maam ma'am mister miss
account card number phone email address name last first middle full spelled spell spelling is my
one two three four five six seven eight nine ten zero
street avenue road lane drive court boulevard apartment suite unit
`.trim().split(/\s+/));

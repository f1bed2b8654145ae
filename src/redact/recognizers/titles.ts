// Titles said before a person's name: civil ("Mr", "Dr", "Reverend"), and military and police ranks ("Petty Officer
// Delia Quon", "Sgt. Ruiz", "Lieutenant Commander ..."), written in full or abbreviated. A name after one is a
// person's, even where an address follows it ("Petty Officer Delia Quon, Unit 100410 Box 318, FPO AP 96667").

/** Titles and ranks, lower case, without their dots. */
export const TITLES = new Set(`mr mrs ms mx miss mister missus dr doctor prof professor rev reverend pastor father fr rabbi imam judge
justice senator sen rep representative congressman congresswoman governor gov mayor councilman councilwoman councillor
officer ofc deputy detective det sheriff trooper constable inspector sergeant sgt ssgt sfc msg corporal cpl lcpl private pvt pfc
specialist spc seaman sn airman amn lieutenant lt ltjg captain capt cpt major maj colonel col ltcol general gen brigadier
admiral adm commander cmdr cdr ensign ens midshipman chief cpo petty po1 po2 po3 warrant cwo marshal commodore`.split(/\s+/));

/** Whether word `w` (lower case, dots allowed) is a title or a rank. */
export const isTitle = (w: string): boolean => TITLES.has(w.replace(/\./g, ''));

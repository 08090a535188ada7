import sys,re
lines=open(sys.argv[1]).read().split('\n')
i=[k for k,l in enumerate(lines) if l.startswith('.version')][0]
lines=lines[i:]
out=[];inparams=False;infunc=False;inasm=False;opened=False
for l in lines:
    if l.startswith('.entry'):
        if infunc: out.append('}')
        inparams=True; infunc=True; out.append(l); continue
    if inparams and not l.strip().startswith('.param'):
        out.append(')'); out.append('{'); inparams=False
    if l.strip().startswith('.metadata_section') or l.strip().startswith('//') and 'metadata' in l: break
    if '// begin inline asm' in l:
        out.append(l); inasm=True; opened=False; continue
    if inasm and not opened and l.strip().startswith('.reg'):
        out.append('{'); opened=True
    if '// end inline asm' in l:
        if opened: out.append('}')
        inasm=False
    out.append(l)
if infunc: out.append('}')
open(sys.argv[2],'w').write('\n'.join(out)+'\n')

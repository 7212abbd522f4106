<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.11" tiledversion="1.11.0" name="trees" tilewidth="16" tileheight="16" tilecount="30" columns="10">
 <image source="trees.png" width="160" height="48"/>
  <tile id="30">
  <objectgroup draworder="index" id="2">
   <object id="1" x="5" y="16">
    <polygon points="0,0 0,-5 8,-15 11,-16 11,0"/>
   </object>
  </objectgroup>
  <animation>
   <frame tileid="0" duration="250"/>
   <frame tileid="2" duration="250"/>
   <frame tileid="4" duration="250"/>
  </animation>
 </tile>
 <tile id="31">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,0 2,0 8,3 8,5 7,6 7,8 13,10 15,13 14,16 0,16"/>
   </object>
  </objectgroup>
  <animation>
   <frame tileid="1" duration="250"/>
   <frame tileid="3" duration="250"/>
   <frame tileid="5" duration="250"/>
  </animation>
 </tile>
 <tile id="40">
  <objectgroup draworder="index" id="2">
   <object id="1" x="2" y="16">
    <polygon points="0,0 -1,-1 -1,-4 2,-14 4,-16 14,-16 14,0"/>
   </object>
  </objectgroup>
  <animation>
   <frame tileid="10" duration="250"/>
   <frame tileid="12" duration="250"/>
   <frame tileid="14" duration="250"/>
  </animation>
 </tile>
 <tile id="41">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,0 15,0 16,2 16,5 14,8 15,11 13,16 0,16"/>
   </object>
  </objectgroup>
  <animation>
   <frame tileid="11" duration="250"/>
   <frame tileid="13" duration="250"/>
   <frame tileid="15" duration="250"/>
  </animation>
 </tile>
 <tile id="50">
  <objectgroup draworder="index" id="2">
   <object id="1" x="2" y="0">
    <polygon points="0,0 14,0 14,15 12,15 5,12 1,7 0,4"/>
   </object>
  </objectgroup>
  <animation>
   <frame tileid="20" duration="250"/>
   <frame tileid="22" duration="250"/>
   <frame tileid="24" duration="250"/>
  </animation>
 </tile>
 <tile id="51">
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="0">
    <polygon points="0,0 15,0 15,9 8,12 2,15 0,15"/>
   </object>
  </objectgroup>
  <animation>
   <frame tileid="21" duration="250"/>
   <frame tileid="23" duration="250"/>
   <frame tileid="25" duration="250"/>
  </animation>
 </tile>
</tileset>
